"""One-click "stop this kind of mail" (RFC 8058): every notification carries
a signed link for its recipient's seat and kind. The signature is the proof - no login - and
the link only ever switches that one kind off for that one player (``preferences_update``),
and only while the seat is held by the user it was mailed to (a seat handed to someone else,
is not switched off by its former holder's old mails). Links do not expire:
a mail read months later still unsubscribes."""

from django.core import signing
from django.urls import reverse
from django.utils.translation import gettext as _

from battles.models import NotificationKind
from campaigns.errors import DomainError
from campaigns.mail import absolute
from campaigns.models import Player

SALT = "feldzug.notifications.unsubscribe"


class BadUnsubscribeLink(DomainError):
    default_code = "bad_link"


def unsubscribe_token(*, player_id: int, user_id: int, kind: str) -> str:
    """Without a timestamp (links do not expire): the same seat and kind always give the same
    link, so a mail's ``List-Unsubscribe`` header, made when it is sent, is the link of its
    body, made when it was queued."""
    return signing.Signer(salt=SALT).sign_object([player_id, user_id, kind])


def _signed_values(token: str):
    if token.count(":") == 2:  # value:timestamp:signature, mailed before links lost the time
        return signing.loads(token, salt=SALT)
    return signing.Signer(salt=SALT).unsign_object(token)


def unsubscribe_link(*, player_id: int, user_id: int, kind: str) -> str:
    """The absolute link for the page and the ``List-Unsubscribe`` header."""
    token = unsubscribe_token(player_id=player_id, user_id=user_id, kind=kind)
    return absolute(reverse("unsubscribe", args=[token]))


def unsubscribe_read(token: str) -> tuple[Player, str]:
    """(player, kind) a link is for; ``BadUnsubscribeLink`` for a tampered or stale one."""
    try:
        player_id, user_id, kind = _signed_values(token)
    except (signing.BadSignature, TypeError, ValueError) as exc:
        raise BadUnsubscribeLink(_("This unsubscribe link is not valid.")) from exc
    player = Player.objects.select_related("campaign").filter(pk=player_id).first() \
        if isinstance(player_id, int) else None
    if player is None or player.user_id != user_id or kind not in NotificationKind.values:
        raise BadUnsubscribeLink(_("This unsubscribe link is not valid (any more)."))
    return player, kind


def unsubscribe_apply(*, token: str) -> tuple[Player, str]:
    """Switch the link's kind off for the link's player; doing it twice changes nothing."""
    from battles.services.notifications import preferences_update  # it imports this module

    player, kind = unsubscribe_read(token)
    preferences_update(player=player, changes={kind: False})
    return player, kind
