"""The one-click "stop this kind of mail" page (RFC 8058). The signed link in
every notification is the proof, so no login is needed: GET asks with a button, POST (the
button, or a mail program's ``List-Unsubscribe=One-Click`` POST) switches that one kind off
for that one player. A tampered or stale link is a 400 page."""

from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from battles.services.unsubscribe import unsubscribe_apply, unsubscribe_read
from campaigns.errors import DomainError
from web.forms.auth import NOTIFICATION_LABELS

TEMPLATE = "registration/unsubscribe.html"


@csrf_exempt  # mail programs POST without a session or CSRF token; the signature guards it
@require_http_methods(["GET", "POST"])
def unsubscribe(request, token: str):
    try:
        if request.method == "POST":
            player, kind = unsubscribe_apply(token=token)
        else:
            player, kind = unsubscribe_read(token)
    except DomainError as exc:
        return render(request, TEMPLATE, {"error": exc.message}, status=exc.status)
    return render(request, TEMPLATE, {"campaign": player.campaign,
                                      "kind": NOTIFICATION_LABELS[kind],
                                      "done": request.method == "POST"})
