"""Middleware of the site's own."""

from __future__ import annotations

from django.contrib.messages.middleware import MessageMiddleware
from django.http import HttpRequest

#: Where the REST API lives (tute_site/urls.py): JSON for bots and apps, never a page.
API_PATH_PREFIX = "/api/"


class WebsiteMessageMiddleware(MessageMiddleware):
    """Django's messages for the website's pages only.

    The API never shows a message, and setting up the message storage (its cookie and session
    backends) on every request was a few per cent of a bot's call. An API request has no message
    storage, as if the middleware were not installed; its answer leaves the messages of the website's
    visitor where they are.
    """

    def process_request(self, request: HttpRequest) -> None:
        if not request.path_info.startswith(API_PATH_PREFIX):
            super().process_request(request)
