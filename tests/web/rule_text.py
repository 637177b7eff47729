"""Pages link every rule id to its section (``|rule_links``); tests that compare a
message's text read the page with those links taken out again."""

import re

RULE_LINK = re.compile(r'<a class="rule-link" href="[^"]*">(R-[A-Z]+(?:-\d+)?)</a>')


def unlinked(html: str) -> str:
    return RULE_LINK.sub(r"\1", html)
