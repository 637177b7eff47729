import json

from django.core.paginator import Paginator
from django.http import HttpResponse
from rest_framework.pagination import PageNumberPagination
from rest_framework.renderers import JSONRenderer

JSON = JSONRenderer.media_type


class FirstPageCounts(Paginator):
    """A first page shorter than the page size counts itself, without the COUNT
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


def json_page(request, paginator: Pagination, rows: list[bytes]):
    """``paginator``'s answer (``get_paginated_response``) for rows already written as JSON
    (the battles list joins its cached rows' bytes). The same bytes DRF's
    JSONRenderer writes; a client asking for the browsable API gets that as ever."""
    body = b"[" + b",".join(rows) + b"]"
    if not isinstance(request.accepted_renderer, JSONRenderer):
        return paginator.get_paginated_response(json.loads(body))
    envelope = JSONRenderer().render({"count": paginator.page.paginator.count,
                                      "next": paginator.get_next_link(),
                                      "previous": paginator.get_previous_link(),
                                      "results": []})  # last: its "[]}" ends the envelope
    return HttpResponse(envelope[:-3] + body + b"}", content_type=JSON)
