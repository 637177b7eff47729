"""Costly one-click actions ask first, in words that say what is lost (R-SEC-2: an admin
changes phases "after confirmation"; R-ATK-5: a withdrawn declaration's army stays spent).

A view calls ``ask`` while the POST lacks ``confirm=yes``: instead of acting it answers with
the question, its consequence, a "Yes, ..." button that posts the same fields again with the
confirm field, and Cancel linking back. Without script that answer is a page; the script
(static/confirm.js) asks for it as an htmx request and shows the box alone in a <dialog>.
The API does not ask: its clients confirm themselves."""

from django.http import HttpResponse
from django.shortcuts import render

from web.views.scope import Scope

FIELD = "confirm"
YES = "yes"
NOT_CARRIED = (FIELD, "csrfmiddlewaretoken")  # the confirm form brings its own token


def confirmed(request) -> bool:
    return request.POST.get(FIELD) == YES


def ask(request, scope: Scope, *, question: str, consequence: str, yes: str,
        back: str) -> HttpResponse:
    """The confirmation in place of the action: ``question``, ``consequence`` (what is lost),
    ``yes`` labelling the button that acts, ``back`` the address Cancel leads to."""
    context = {"question": question, "consequence": consequence, "yes": yes, "back": back,
               "action": request.path, "confirm_field": FIELD, "confirm_value": YES,
               "fields": [(name, value) for name, values in request.POST.lists()
                          if name not in NOT_CARRIED for value in values]}
    if request.htmx:  # the dialog: the box alone
        return render(request, "web/_confirm.html", context)
    return render(request, "web/confirm.html", scope.context(**context))
