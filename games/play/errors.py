"""Errors the services raise for bad input. Each carries a translatable message and a
stable code, so the bot can answer a tap with a short toast in the player's language."""

from django.utils.translation import gettext_lazy as _


class GameError(Exception):
    code = "error"
    message = _("That is not possible now.")

    def __init__(self, message=None, **params):
        self.params = params
        if message is not None:
            self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        return str(self.message) % self.params if self.params else str(self.message)


class NameRequired(GameError):
    code = "name_required"
    message = _("Tell the table your name.")


class ChatBusy(GameError):
    code = "chat_busy"
    message = _("There is already a game in this chat.")


class WrongGame(GameError):
    code = "wrong_game"
    message = _("This button belongs to another game.")


class GameGone(GameError):
    code = "game_gone"
    message = _("This game no longer exists.")


class UnknownGameType(GameError):
    code = "unknown_game_type"
    message = _("There is no such game.")


class NotInLobby(GameError):
    code = "not_in_lobby"
    message = _("The game has already started.")


class TableFull(GameError):
    code = "table_full"
    message = _("The table is full.")


class AlreadySeated(GameError):
    code = "already_seated"
    message = _("You are already at the table.")


class NotSeated(GameError):
    code = "not_seated"
    message = _("You are not playing in this game.")


class NotEnoughPlayers(GameError):
    code = "not_enough_players"
    message = _("This game needs %(min)d to %(max)d players.")


class PlayersUnreachable(GameError):
    code = "unreachable"
    message = _("Some players must start a private chat with the bot first: %(names)s.")


class NotAllowed(GameError):
    code = "not_allowed"
    message = _("Only the game's creator or a chat administrator may do that.")


class Banned(GameError):
    code = "banned"
    message = _("You are banned from playing.")


class GameNotRunning(GameError):
    code = "not_running"
    message = _("The game is not running.")


class GameOver(GameError):
    code = "game_over"
    message = _("The game is over.")


class NotYourTurn(GameError):
    code = "not_your_turn"
    message = _("It is not your turn.")


class SeatTakenOver(GameError):
    code = "seat_taken_over"
    message = _("A computer plays your seat now.")


class UnknownAction(GameError):
    code = "unknown_action"
    message = _("That move is not possible now.")


class StaleButton(GameError):
    code = "stale"
    message = _("This button is out of date.")


class InviteRequired(GameError):
    code = "invite_required"
    message = _("Only people with the table's invite link may sit down: ask its creator for it.")


class TelegramLobby(GameError):
    code = "telegram_lobby"
    message = _("This game is played in a Telegram group: join it from the group.")


class NameInvisible(GameError):
    code = "name_invisible"
    message = _("Your name needs at least one visible character.")


class NameTooLong(GameError):
    code = "name_too_long"
    message = _("A name may have at most %(max)d characters.")


class NameReserved(GameError):
    code = "name_reserved"
    message = _("That name belongs to the computer players; choose another one.")


class KeyTaken(GameError):
    code = "key_taken"
    message = _("This move's key was already used by another seat; send the move again.")


class CompletionTooLow(GameError):
    """Issue 26: the league asks a completion record the player does not have."""

    code = "completion_too_low"
    message = _(
        "This league's games need players who finished at least %(minimum)d%% of their"
        " recent games: you finished %(finished)d of %(counted)d."
    )
