from tute_site.exceptions import ApplicationError


class UnknownPool(ApplicationError):
    code = "unknown_pool"
    http_status = 404
    message = "No such rating pool."


class PlayerNotFound(ApplicationError):
    code = "player_not_found"
    http_status = 404
    message = "No player has that handle."
