"""Server-rendered pages of the campaign core."""

from django.shortcuts import render


def home(request):
    return render(request, "home.html")
