"""What the front-ends may do to games. Nothing outside ``games/`` changes a game.

Every function validates its input and raises a ``games.play.errors.GameError``
(translatable, with a stable code) for bad input, changing nothing. Moves are recorded as
pending rows and applied by the game processor (``games.play.processing``, queued by
``games.play.tasks.enqueue``) after the transaction commits.
"""

from __future__ import annotations

import hmac
import secrets
from contextlib import nullcontext
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from games import catalog
from games.languages import Language, from_telegram
from games.play import completion, errors, finish, levels, names, recording, signals
from games.play.finish import notify
from games.play.models import (
    OPEN_STATUSES,
    AbortReason,
    Game,
    GameStatus,
    Move,
    MoveSource,
    Player,
    Seat,
)
from games.play.table import Table
from games.play.tasks import enqueue
from server import metrics


# --- Who acts -------------------------------------------------------------------------
class System:
    """The system acting on a game on its own authority: a moderator's decision (through
    ``games.moderation``), a ban, a management command or a test arranging a table. Only
    code passes it: a front-end passes the player it identified, and ``None`` (nobody it
    could identify) is refused, never read as "the system"."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "SYSTEM"


SYSTEM = System()
Actor = Player | System


# --- Players --------------------------------------------------------------------------
def player_from_telegram(
    telegram_id: int, display_name: str, username: str = "", language_code: str | None = None
) -> Player:
    """The player behind a Telegram user, created on first sight and kept up to date. The
    name is cleaned as a browser's is, but never refused (``names.for_telegram``)."""
    defaults = {
        "display_name": names.for_telegram(display_name, username, telegram_id),
        "username": username or "",
    }
    player, created = Player.objects.get_or_create(
        telegram_id=telegram_id,
        defaults={**defaults, "language": from_telegram(language_code)},
    )
    if not created and player.name_locked:  # a moderator's rename stays (issue 48)
        defaults["display_name"] = player.display_name
    if not created and (player.display_name, player.username) != (
        defaults["display_name"],
        defaults["username"],
    ):
        Player.objects.filter(pk=player.pk).update(**defaults, last_seen=timezone.now())
        player.display_name, player.username = defaults["display_name"], defaults["username"]
    return player


def browser_player(name: str, language: str, player: Player | None = None) -> Player:
    """The player behind a browser: ``player`` (the one its session holds) renamed, or a
    new one. Browser players have no Telegram account. A name that breaks a rule of
    ``games.play.names`` is refused with the reason."""
    name = names.for_browser(name)
    if language not in Language.values:
        language = settings.LANGUAGE_CODE
    if player is not None and not player.in_telegram:
        if player.name_locked:  # a moderator's rename stays (issue 48)
            name = player.display_name
        Player.objects.filter(pk=player.pk).update(display_name=name, last_seen=timezone.now())
        player.display_name = name
        return player
    return Player.objects.create(display_name=name, language=language)


def set_language(player: Player, code: str) -> None:
    """The language of the player's private messages (en, it, pt)."""
    if code not in Language.values:
        raise errors.UnknownAction()
    Player.objects.filter(pk=player.pk).update(language=code)
    player.language = code


def set_reachable(player: Player, reachable: bool) -> bool:
    """Whether the bot may write to the player privately (Start pressed; not blocked since).
    Returns whether it changed."""
    to_change = Player.objects.filter(pk=player.pk).exclude(reachable=reachable)
    changed = to_change.update(reachable=reachable)
    player.reachable = reachable
    return bool(changed)


def check_not_banned(player: Player) -> None:
    if player.banned_now:
        raise errors.Banned()


def check_completion(league, player: Player) -> None:
    """Issue 26: a league with a minimum completion record seats only players who reach
    it (``games.play.completion``; a newcomer with no counted game does)."""
    minimum = league.min_completion
    if minimum is None:
        return
    mine = completion.record(player.pk)
    if not mine.meets(minimum):
        raise errors.CompletionTooLow(minimum=minimum, finished=mine.finished, counted=mine.counted)


# --- Lobby ----------------------------------------------------------------------------
def create_lobby(
    chat_id: int | None,
    game_type: str,
    creator: Player,
    *,
    league=None,
    options: dict | None = None,
    turn_seconds: int | None = None,
    auto_play: bool = False,
) -> Game:
    """Open a lobby in a chat (``None``: a table in the browser), with its creator seated.
    One open game per chat. ``auto_play``: the table plays a human's move when it is the
    only one (in the games whose catalog entry allows it)."""
    if game_type not in catalog.slugs():
        raise errors.UnknownGameType()
    check_not_banned(creator)
    # Issue 48: a league may review names first (outside the seating's transaction, so that
    # what the check records stays when it refuses).
    signals.seating.send(Player, league=league, player=creator)
    if league is not None:
        check_completion(league, creator)  # the creator sits at the table too
    try:
        with transaction.atomic():
            game = Game.objects.create(
                game_type=game_type,
                chat_id=chat_id,
                league=league,
                created_by=creator,
                options=options or {},
                turn_seconds=turn_seconds,
                auto_play=auto_play and catalog.get(game_type).auto_play,
                # A browser table is joined by its invite link; a chat's game in the chat.
                invite=secrets.token_urlsafe(16) if chat_id is None else "",
            )
            Seat.objects.create(game=game, number=0, player=creator)
    except IntegrityError as exc:
        if Game.objects.filter(chat_id=chat_id, status__in=OPEN_STATUSES).exists():
            raise errors.ChatBusy() from exc
        raise
    notify(game)
    return game


def open_game(chat_id: int) -> Game | None:
    return Game.objects.filter(chat_id=chat_id, status__in=OPEN_STATUSES).first()


def _lock_lobby(game_id: int) -> Game:
    game = Game.objects.select_for_update().get(pk=game_id)
    if game.status != GameStatus.LOBBY:
        raise errors.NotInLobby()
    return game


def join(game: Game, player: Player, invite: str | None = None) -> Seat:
    """Seat ``player`` in a lobby: a chat's lobby takes Telegram players only (the bot
    must reach them with their cards), a browser table only those who bring its
    ``invite`` token (the table's address alone lets a visitor watch)."""
    check_not_banned(player)
    signals.seating.send(Player, league=game.league if game.league_id else None, player=player)
    with transaction.atomic():
        game = _lock_lobby(game.pk)
        if game.chat_id is not None and not player.in_telegram:
            raise errors.TelegramLobby()
        if game.chat_id is None and not invited(game, invite):
            raise errors.InviteRequired()
        seats = list(game.seats.all())
        if any(s.player_id == player.pk for s in seats):
            raise errors.AlreadySeated()
        if len(seats) >= game.kind.rules.max_players:
            raise errors.TableFull()
        if game.league_id:
            check_completion(game.league, player)
        seat = Seat.objects.create(game=game, number=_next_number(seats), player=player)
    notify(game)
    return seat


def invited(game: Game, invite: str | None) -> bool:
    """Whether ``invite`` is the browser table's invite token (in constant time; any
    string a visitor sends, non-ASCII too, is only ever compared)."""
    if not game.invite or not invite:
        return False
    return hmac.compare_digest(invite.encode(), game.invite.encode())


def leave(game: Game, player: Player) -> None:
    with transaction.atomic():
        game = _lock_lobby(game.pk)
        deleted, _ = game.seats.filter(player=player).delete()
        if not deleted:
            raise errors.NotSeated()
        if not game.seats.filter(player__isnull=False).exists():
            # The last human left: nobody is there to start it.
            finish.abort(game, AbortReason.EVERYONE_LEFT)
    notify(game)


def add_computer(
    game: Game, strategy: str | None = None, *, by: Actor | None, is_chat_admin: bool = False
) -> Seat:
    strategy = strategy or game.kind.default_strategy
    if strategy not in game.kind.strategies():
        raise errors.GameError()
    with transaction.atomic():
        game = _lock_lobby(game.pk)
        _check_may_manage(game, by, is_chat_admin)
        seats = list(game.seats.all())
        if len(seats) >= game.kind.rules.max_players:
            raise errors.TableFull()
        seat = Seat.objects.create(
            game=game, number=_next_number(seats), player=None, strategy=strategy
        )
    notify(game)
    return seat


def set_computer_level(
    game: Game,
    number: int,
    level: str,
    by: Actor | None,
    *,
    is_chat_admin: bool = False,
    current: str | None = None,
) -> Seat:
    """Change a lobby computer's level (issue 14). ``current``: the level the tapped
    button showed; a seat whose level changed since refuses (a stale button)."""
    if level not in levels.offered(game.kind):
        raise errors.GameError()
    with transaction.atomic():
        game = _lock_lobby(game.pk)
        _check_may_manage(game, by, is_chat_admin)
        seat = game.seats.filter(number=number, player__isnull=True).first()
        if seat is None:  # no such seat, or a person's: only computers have a level
            raise errors.GameError()
        if current is not None and levels.level_of(seat.strategy) != current:
            raise errors.StaleButton()
        seat.strategy = levels.strategy_for(game.kind, level)
        seat.save(update_fields=["strategy"])
        game.save(update_fields=["updated_at"])  # the web lobby's change token moves
    notify(game)
    return seat


def remove_seat(game: Game, number: int, by: Actor | None, *, is_chat_admin: bool = False) -> None:
    """Take a seat (a computer, or a player who cannot be reached) out of the lobby. A
    player who can be reached leaves by themselves: nobody else removes them."""
    with transaction.atomic():
        game = _lock_lobby(game.pk)
        _check_may_manage(game, by, is_chat_admin)
        seat = game.seats.select_related("player").filter(number=number).first()
        if seat is None:
            raise errors.NotSeated()
        if by is not SYSTEM and seat.player is not None and seat.player.reachable:
            raise errors.NotAllowed()
        seat.delete()
    notify(game)


def _next_number(seats: list[Seat]) -> int:
    return max((s.number for s in seats), default=-1) + 1


def _check_may_manage(game: Game, by: Actor | None, is_chat_admin: bool = False) -> None:
    """Only the creator or a chat administrator (the bot tells) manages a game, or the
    system (``SYSTEM``); nobody (``None``) never does."""
    if by is SYSTEM:
        return
    if not isinstance(by, Player):
        raise errors.NotAllowed()
    # A browser table has no chat, so nobody administers one.
    if not (is_chat_admin and game.chat_id is not None) and by.pk != game.created_by_id:
        raise errors.NotAllowed()


def start(game: Game, by: Actor | None, *, is_chat_admin: bool = False) -> Game:
    """Seat the players in a random order, deal with a fresh seed, and let play begin."""
    with transaction.atomic():
        game = _lock_lobby(game.pk)
        _check_may_manage(game, by, is_chat_admin)
        rules = game.kind.rules
        seats = list(game.seats.select_related("player"))
        if not rules.min_players <= len(seats) <= rules.max_players:
            raise errors.NotEnoughPlayers(min=rules.min_players, max=rules.max_players)
        # In a chat, cards come in private messages: the bot must be allowed to send them.
        unreachable = [
            s.player.display_name
            for s in seats
            if game.chat_id is not None and s.player and not s.player.reachable
        ]
        if unreachable:
            raise errors.PlayersUnreachable(names=", ".join(unreachable))
        order = list(range(len(seats)))
        secrets.SystemRandom().shuffle(order)
        # Two steps, so that the unique (game, number) constraint holds at every statement.
        for seat in seats:
            seat.number += 100
        Seat.objects.bulk_update(seats, ["number"])
        for seat, number in zip(seats, order, strict=True):
            seat.number = number
        Seat.objects.bulk_update(seats, ["number"])

        _deal(game, len(seats), secrets.randbits(62))
    notify(game)
    return game


def seat_table(
    game_type: str, players: list[Player], *, league=None, seed: int | None = None
) -> Game:
    """A table the system forms and starts at once (issue 26: a tournament round's table):
    ``players`` sit in the order given, and ``seed`` deals (a duplicate round's shared
    deal; None: a fresh one). A table in the browser, since a chat holds one open game and
    a round has many; its players reach it by its page (the web table button)."""
    kind = catalog.get(game_type)
    if not kind.rules.min_players <= len(players) <= kind.rules.max_players:
        raise errors.NotEnoughPlayers(min=kind.rules.min_players, max=kind.rules.max_players)
    with transaction.atomic():
        game = Game.objects.create(
            game_type=game_type,
            chat_id=None,
            league=league,
            created_by=None,
            invite=secrets.token_urlsafe(16),
        )
        Seat.objects.bulk_create(Seat(game=game, number=n, player=p) for n, p in enumerate(players))
        _deal(game, len(players), secrets.randbits(62) if seed is None else seed)
    notify(game)
    return game


def _deal(game: Game, n_seats: int, seed: int) -> None:
    """Deal a seated lobby with ``seed`` and let play begin (the caller holds the lock)."""
    rules = game.kind.rules
    options = dict(game.options)
    if game.league_id:
        # The options the game takes from its league, as the league has them now.
        for option in game.kind.league_options:
            options.setdefault(option.option, getattr(game.league, option.field))
    game.options = options
    game.seed = seed
    game.state = rules.dump(rules.setup(n_seats, game.seed, options))
    game.turn_seconds = (
        game.turn_seconds
        or (game.league.turn_seconds if game.league is not None else None)
        or settings.TURN_SECONDS.get(game.game_type)
        or game.kind.turn_seconds
    )
    game.status = GameStatus.RUNNING
    game.started_at = timezone.now()
    game.version = 0
    game.save()
    transaction.on_commit(lambda: enqueue(game.pk))


# --- Play -----------------------------------------------------------------------------
@metrics.counts_refusals
def submit_move(
    game_id: int,
    player: Player,
    action: str,
    key: str,
    seen_version: int | None = None,
) -> Move:
    """Record a player's move; the processor applies it after commit.

    The same ``key`` (the Telegram update or callback query id) delivered twice returns
    the first move and records nothing. A move that cannot be legal now is refused at once
    with the reason, so the player gets an answer without waiting for the worker. The
    move's ``game`` comes with its ``game_type`` (for the answer's wording) at no cost.
    """
    check_not_banned(player)
    key = key[:64]
    move = recording.record_if_legal(game_id, player.pk, action, key, seen_version)
    if move is None:
        move, recorded = _record_checked(game_id, player, action, key, seen_version)
        if not recorded:
            return move  # the first delivery's
    transaction.on_commit(lambda: enqueue(game_id))
    return move


def _record_checked(
    game_id: int, player: Player, action: str, key: str, seen_version: int | None
) -> tuple[Move, bool]:
    """Read the game, say why the move cannot be made, or record it: the path for what
    ``recording.record_if_legal`` did not record. Returns the move and whether it is new
    (else the first delivery's, for a key already used)."""
    seat = (
        Seat.objects.select_related("game")
        .filter(game_id=game_id, player=player)
        .only("number", "strategy", "replaced_by_computer", "player_id", "game")
        .first()
    )
    if seat is None:
        if not Game.objects.filter(pk=game_id).exists():
            raise errors.GameGone()
        raise errors.NotSeated()
    game = seat.game
    if game.status == GameStatus.LOBBY:
        raise errors.GameNotRunning()
    if game.status != GameStatus.RUNNING:
        raise errors.GameOver()
    if seat.replaced_by_computer:
        raise errors.SeatTakenOver()
    try:
        _check_legal(game, seat.number, action, seen_version)
    except errors.GameError:
        # A redelivered update whose first delivery already moved the game on.
        duplicate = Move.objects.filter(game_id=game_id, key=key).first()
        if duplicate is not None:
            return _redelivered(duplicate, seat), False
        raise
    # Inside a caller's transaction, a savepoint keeps a duplicate key from breaking it;
    # on its own, the INSERT is its own transaction and needs no BEGIN and COMMIT around it.
    savepoint = transaction.atomic() if connection.in_atomic_block else nullcontext()
    try:
        with savepoint:
            move = Move.objects.create(
                game=game,
                key=key,
                seat=seat.number,
                action=action,
                source=MoveSource.HUMAN,
                seen_version=seen_version,
            )
    except IntegrityError:
        # A duplicate delivery of the same update: the first one stands.
        return _redelivered(Move.objects.get(game_id=game_id, key=key), seat), False
    return move, True


def _redelivered(first: Move, seat: Seat) -> Move:
    """The move first recorded under a key, when this seat sent it: a key is bound to the
    seat that used it first, so another seat's reuse is refused, never answered as if its
    move had been recorded."""
    if first.seat != seat.number:
        raise errors.KeyTaken()
    return first


def _check_legal(game: Game, number: int, action: str, seen_version: int | None) -> None:
    """Refuse at once what cannot be legal on the current table. The processor has the
    last word: a move that passes here may still lose a race and be rejected there."""
    table = Table(game)
    stale = seen_version is not None and seen_version != game.version
    if number not in table.to_act():
        raise errors.StaleButton() if stale else errors.NotYourTurn()
    if action not in table.legal(number):
        raise errors.StaleButton() if stale else errors.UnknownAction()


# --- Moderation -----------------------------------------------------------------------
def abort(
    game: Game,
    reason: AbortReason = AbortReason.CANCELLED,
    note: str = "",
    *,
    by: Actor | None,
    is_chat_admin: bool = False,
) -> Game:
    """End an open game without a result: its creator or a chat administrator cancels it
    (``by``), or a moderator aborts it (``by=SYSTEM``, with a note).

    A running game cancelled by a player forfeits it for them: they are rated as last
    (``Seat.forfeited``). A chat administrator who does not play cannot stop a running
    game: only moderators abort one without a forfeit."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if not game.is_open:
            raise errors.GameOver()
        _check_may_manage(game, by, is_chat_admin)
        # The system aborts without a forfeit; a player (the only other actor let through)
        # who stops a running game forfeits it.
        if (
            isinstance(by, Player)
            and game.status == GameStatus.RUNNING
            and not game.seats.filter(player=by).update(forfeited=True)
        ):
            raise errors.NotAllowed()
        finish.abort(game, reason, note)
    return game


def moderator_move(game: Game, number: int, value: str, reason: str) -> Move:
    """A moderator's move on a seat, one the game declares (``GameKind.moderator_moves``),
    with a reason. Recorded in the move log like any move, so the game still replays
    exactly; the processor applies it through the game's ``ModeratorMove``."""
    move = game.kind.moderator_move(value)
    if move is None:
        raise errors.WrongGame()
    if not reason.strip():
        raise errors.UnknownAction()
    if game.status != GameStatus.RUNNING:
        raise errors.GameOver()
    if not game.seats.filter(number=number).exists():
        raise errors.NotSeated()
    recorded = Move.objects.create(
        game=game,
        key=f"moderator:{secrets.token_hex(8)}",
        seat=number,
        action=move.value,
        source=MoveSource.MODERATOR,
        note=reason.strip(),
    )
    transaction.on_commit(lambda: enqueue(game.pk))
    return recorded


def set_auto_play(chat_id: int, on: bool) -> None:
    """A chat switched automatic moves on or off: its open game follows (in the games
    whose catalog entry allows them); a forced move waiting now is played shortly."""
    with transaction.atomic():
        game = (
            Game.objects.select_for_update()
            .filter(chat_id=chat_id, status__in=OPEN_STATUSES)
            .first()
        )
        if game is None or not game.kind.auto_play or game.auto_play == on:
            return
        game.auto_play = on
        fields = ["auto_play"]
        if on and game.status == GameStatus.RUNNING:
            game.deadline = timezone.now() + timedelta(seconds=settings.AUTO_PLAY_SECONDS)
            fields.append("deadline")
        game.save(update_fields=fields)


def replace_with_computer(
    game: Game,
    number: int,
    strategy: str | None = None,
    *,
    by: Actor | None,
    is_chat_admin: bool = False,
) -> Seat:
    """Hand a seat to a computer for the rest of the game (a moderator's decision or a
    ban's, ``by=SYSTEM``); in a lobby, the creator or a chat administrator swaps a player
    who cannot be reached for a computer."""
    strategy = strategy or levels.handover_strategy(game)  # issue 14: the league's level
    if strategy not in game.kind.strategies():
        raise errors.GameError()
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        _check_may_manage(game, by, is_chat_admin)
        seat = game.seats.filter(number=number).first()
        if seat is None:
            raise errors.NotSeated()
        if game.status == GameStatus.LOBBY:
            seat.player = None
        elif game.status == GameStatus.RUNNING:
            seat.replaced_by_computer = seat.player_id is not None
            # A moderator's (or a ban's) decision, not the player's absence: no forfeit.
            seat.timeouts = 0
        else:
            raise errors.GameOver()
        seat.strategy = strategy
        seat.save()
        # The game's row changes with its seats: a processing step waiting for the lock
        # then reads the seats again (``processing.lock_game``), and a lobby's pages see
        # the swap (a lobby's change token reads the row's ``updated_at``).
        game.save(update_fields=["updated_at"])
        if game.status == GameStatus.RUNNING:
            transaction.on_commit(lambda: enqueue(game.pk))
    notify(game)
    return seat


def leave_running(game: Game, player: Player) -> Seat | None:
    """A player leaves a running league game for good (they withdrew from its tournament).
    The league's rule for leaving, as when a player stays away until the timer hands their
    seat over: a computer at the league's level plays the seat (``levels
    .handover_strategy``), the game goes on and counts for the others, and the seat
    forfeits (rated and placed last; not finished in the completion record). None when
    the game is not running or no seat there is still the player's own."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.status != GameStatus.RUNNING:
            return None
        seat = game.seats.filter(player=player, replaced_by_computer=False).first()
        if seat is None:
            return None
        seat.replaced_by_computer = True
        seat.forfeited = True
        seat.strategy = seat.strategy or levels.handover_strategy(game)
        seat.save(update_fields=["replaced_by_computer", "forfeited", "strategy"])
        # The game's row changes with its seats (``processing.lock_game`` reads them again).
        game.save(update_fields=["updated_at"])
        transaction.on_commit(lambda: enqueue(game.pk))
    notify(game)
    return seat


def move_chat(old_chat_id: int, new_chat_id: int) -> list[int]:
    """A Telegram group upgraded to a supergroup lives on under a new chat id: its games
    follow it (its league link: ``games.leagues.services.move_chat_link``). Returns the
    open games that moved; a second call (both chats announce the move) finds nothing left
    to move.

    The new chat can only hold an open game of its own if someone started one there before
    the move was announced; then that one stands and the old chat's open game is closed.
    """
    if old_chat_id == new_chat_id:
        return []
    with transaction.atomic():
        moving = list(Game.objects.select_for_update().filter(chat_id=old_chat_id))
        if open_game(new_chat_id) is not None:
            for game in moving:
                if game.is_open:
                    finish.abort(game, AbortReason.MOVED)
        Game.objects.filter(pk__in=[g.pk for g in moving]).update(chat_id=new_chat_id)
    return [g.pk for g in moving if g.is_open]
