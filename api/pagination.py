from django.core.paginator import Paginator
from rest_framework.pagination import PageNumberPagination


class FirstPageCounts(Paginator):
    """Issue 21: a first page shorter than the page size counts itself, without the COUNT
    query (most lists of a campaign fit one page); any other page counts as Django does."""

    def page(self, number):
        if str(number) != "1" or "count" in self.__dict__:
            return super().page(number)
        rows = list(self.object_list[: self.per_page])
        if len(rows) < self.per_page:
            self.__dict__["count"] = len(rows)  # the cached_property, known now
        self.validate_number(1)
        return self._get_page(rows, 1, self)


class Pagination(PageNumberPagination):
    """`?page=` and `?page_size=` up to 500 (API.md General)."""

    django_paginator_class = FirstPageCounts
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500
