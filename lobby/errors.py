"""Domain errors of quick pairing; the API renders each as {"code", "message", "detail"}."""

from __future__ import annotations

from rest_framework import status

from tute_site.exceptions import ApplicationError


class SeekNotFound(ApplicationError):
    code = "seek_not_found"
    http_status = status.HTTP_404_NOT_FOUND
    message = "No such seek of yours."


class SeekExists(ApplicationError):
    code = "seek_exists"
    http_status = status.HTTP_409_CONFLICT
    message = "You are already looking for a game of this kind: cancel that seek first."


class SeekMatched(ApplicationError):
    code = "seek_matched"
    http_status = status.HTTP_409_CONFLICT
    message = "This seek has found its match already: play it, or resign there."


class TooManySeeks(ApplicationError):
    code = "too_many_seeks"
    http_status = status.HTTP_429_TOO_MANY_REQUESTS
    message = "You made as many seeks lately as an account may: wait a little."


class SeekOutOfRange(ApplicationError):
    code = "seek_out_of_range"
    http_status = status.HTTP_409_CONFLICT
    message = "Your rating is outside the range this seek asks for."


class InvalidSeek(ApplicationError):
    code = "invalid_seek"
    http_status = status.HTTP_400_BAD_REQUEST
    message = "The seek does not fit the game."
