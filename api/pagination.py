from rest_framework.pagination import PageNumberPagination


class Pagination(PageNumberPagination):
    """`?page=` and `?page_size=` up to 500 (API.md General)."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500
