"""Issue 26, the Telegram side: a group's administrators organise a tournament with
/tournament's buttons, the group signs up by tapping the announcement, rounds start by
themselves and are posted in the group (each table with its live table's button) and to
each seated player in private (with the web table button), the players play their tables
by tapping in private, a player who never shows forfeits, and the end is told."""

from datetime import timedelta

from django.utils import timezone

from bot import callbacks
from bot.models import RoundMessages, SeatMessage, TournamentMessages
from games.play.models import Game, GameStatus, Player, Seat
from games.play.table import Table as GameTable
from games.tournaments import tasks as tourney_tasks
from games.tournaments.models import Entry, Format, Round, RoundTable, Status, Tournament
from tests.bot.tournament_play import club

SITE = "https://catclub.example"


def swiss_steps(rounds=2, start=10):
    return (
        callbacks.organise("felix"),
        callbacks.organise("felix", "swiss"),
        callbacks.organise("felix", "swiss", rounds),
        callbacks.organise("felix", "swiss", rounds, start),
    )


# -- organising ------------------------------------------------------------------------------
def test_only_a_groups_administrators_organise_a_tournament(telegram, recorder):
    c = club(telegram, recorder)
    bruno = telegram.user("Bruno")
    bruno.say(c.group, "/tournament")
    assert recorder.last(c.chat_id).text == (
        "Only the group's administrators may organise a tournament."
    )
    # The organiser's steps refuse him too, whatever they carry.
    c.olga.say(c.group, "/tournament")
    picker = recorder.last(c.chat_id)
    query = c.tap(bruno, picker, callbacks.organise("felix"))
    assert c.toast(query) == "Only the group's administrators may organise a tournament."
    query = c.tap(bruno, picker, callbacks.organise("felix", "swiss", 2, 10))
    assert c.toast(query) == "Only the group's administrators may organise a tournament."
    assert c.shown(picker).text == picker.text
    assert not Tournament.objects.exists()
    # In private there is no group to organise for.
    bruno.say(telegram.private(bruno), "/tournament")
    assert "in a group" in recorder.last(bruno.id).text


def test_a_group_outside_any_league_is_told_how_to_join_one(telegram, recorder):
    group = telegram.group()
    olga = telegram.user("Olga")
    recorder.admins[group["id"]] = {olga.id}
    olga.say(group, "/tournament")
    assert "/settings CODE" in recorder.last(group["id"]).text
    assert not recorder.last(group["id"]).buttons


def test_the_organisers_steps_make_the_announcement(telegram, recorder):
    c = club(telegram, recorder)
    c.olga.say(c.group, "/tournament")
    picker = recorder.last(c.chat_id)
    assert "Which game?" in picker.text and "Lega Roma" in picker.text
    c.tap(c.olga, picker, callbacks.organise("felix"))
    formats = c.shown(picker)
    assert "Which format?" in formats.text
    labels = [b["text"] for b in formats.buttons]
    assert {"Swiss", "Arena", "Knockout"} <= set(labels)
    c.tap(c.olga, picker, callbacks.organise("felix", "arena"))
    assert "How long" in c.shown(picker).text
    c.tap(c.olga, picker, callbacks.organise())  # back to the games
    assert "Which game?" in c.shown(picker).text
    # Steps the bot does not offer change nothing.
    for forged in ("t:felix.s.9", "t:felix.s.2.7", "t:nogame", "t:felix.a.2", "t:felix.k.3"):
        query = c.tap(c.olga, c.shown(picker), forged)
        assert c.toast(query) == "This button is not valid (any more).", forged
    assert "Which game?" in c.shown(picker).text
    for step in swiss_steps(rounds=3, start=30)[:3]:
        c.tap(c.olga, picker, step)
    assert "When does it start?" in c.shown(picker).text
    query = c.tap(c.olga, picker, callbacks.organise("felix", "swiss", 3, 30))
    assert c.toast(query) == "🏆 Tournament announced: sign-up is open."
    t = Tournament.objects.get()
    assert (t.game_type, t.format, t.round_count, t.table_size) == ("felix", "swiss", 3, 4)
    assert t.chat_id == c.chat_id and t.league.name == "Lega Roma" and t.status == Status.SIGNUP
    assert timedelta(minutes=29) < t.starts_at - timezone.now() <= timedelta(minutes=30)
    assert t.created_by.telegram_id == c.olga.id
    announcement = c.shown(picker)
    assert TournamentMessages.objects.get(tournament=t).announcement_id == picker.message_id
    assert "3 rounds" in announcement.text and "0 players signed up" in announcement.text
    page = f"{SITE}/tournaments/{t.pk}/"
    assert page in announcement.text
    assert {"text": "🏆 Tournament page", "url": page} in announcement.buttons
    data = {b.get("callback_data") for b in announcement.buttons}
    assert {f"T{t.pk}:j", f"T{t.pk}:x", f"T{t.pk}:s", f"T{t.pk}:q"} <= data
    # The last step again (a double tap, or made up by hand) announces nothing more.
    query = c.tap(c.olga, announcement, callbacks.organise("felix", "swiss", 3, 30))
    assert c.toast(query) == "This tournament is already announced."
    assert Tournament.objects.count() == 1


def test_a_knockout_has_no_rounds_to_choose_and_the_organiser_may_close(telegram, recorder):
    c = club(telegram, recorder)
    announcement = c.organise(
        callbacks.organise("smoking_cat"),
        callbacks.organise("smoking_cat", "knockout", 0),
        callbacks.organise("smoking_cat", "knockout", 0, 60),
    )
    t = c.tournament()
    assert (t.format, t.round_count, t.duration_minutes) == (Format.KNOCKOUT, None, None)
    assert (t.table_size, t.go_on) == (4, 2)  # Smoking Cat is played by four
    assert "the top 2 of each table go on" in announcement.text
    assert "It needs 4 players at least" in announcement.text
    c.olga.say(c.group, "/tournament")
    picker = recorder.last(c.chat_id)
    c.tap(c.olga, picker, callbacks.organise(close=True))
    assert c.shown(picker).text == "🏆 No tournament was organised."
    assert not c.shown(picker).buttons
    assert Tournament.objects.count() == 1


def test_signing_up_and_withdrawing_by_button(telegram, recorder):
    c = club(telegram, recorder)
    announcement = c.organise(*swiss_steps())
    t = c.tournament()
    anna, bruno = telegram.user("Anna"), telegram.user("Bruno", "it")
    anna.start_bot()
    query = c.tap(anna, announcement, f"T{t.pk}:j")
    assert c.toast(query) == f"You are signed up for {t.name}."
    assert "1 player signed up" in c.shown(announcement).text
    # Bruno never opened a private chat: the answer tells him to, as an alert.
    query = c.tap(bruno, c.shown(announcement), f"T{t.pk}:j")
    answer = telegram.answer_to(query)
    assert answer.params.get("show_alert") and "premi Avvia" in answer.params["text"]
    assert "2 players signed up" in c.shown(announcement).text
    query = c.tap(anna, c.shown(announcement), f"T{t.pk}:j")
    assert c.toast(query) == "You are already signed up."
    query = c.tap(anna, c.shown(announcement), f"T{t.pk}:x")
    assert c.toast(query) == f"You withdrew from {t.name}."
    query = c.tap(anna, c.shown(announcement), f"T{t.pk}:x")
    assert c.toast(query) == "You are not signed up."
    assert "1 player signed up" in c.shown(announcement).text
    assert list(Entry.objects.values_list("player__telegram_id", flat=True)) == [bruno.id]
    # Not an administrator: no start, no cancel.
    for op in ("s", "q"):
        query = c.tap(anna, c.shown(announcement), f"T{t.pk}:{op}")
        assert c.toast(query) == (
            "Only the group's administrators may start or cancel a tournament."
        )
    # An administrator cannot start it with too few players either.
    query = c.tap(c.olga, c.shown(announcement), f"T{t.pk}:s")
    assert c.toast(query) == "Too few players: 3 must sign up first."
    t.refresh_from_db()
    assert t.status == Status.SIGNUP and not Round.objects.exists()
    # Buttons of no tournament, or of another group's, change nothing.
    query = c.tap(anna, c.shown(announcement), f"T{t.pk + 100}:j")
    assert c.toast(query) == "This tournament no longer exists."
    other = telegram.group(-100_999, "Elsewhere")
    Tournament.objects.filter(pk=t.pk).update(chat_id=other["id"])
    query = c.tap(anna, c.shown(announcement), f"T{t.pk}:j")
    assert c.toast(query) == "This button belongs to another chat."
    Tournament.objects.filter(pk=t.pk).update(chat_id=c.chat_id)
    for forged in (f"T{t.pk}:z", f"T{t.pk}:jj", "Tx:j"):
        query = c.tap(anna, c.shown(announcement), forged)
        assert c.toast(query) == "This button is not valid (any more)."
    assert Entry.objects.count() == 1
    # The administrator cancels: the announcement says so, and the group is told.
    query = c.tap(c.olga, c.shown(announcement), f"T{t.pk}:q")
    assert c.toast(query) == "The tournament was cancelled."
    assert "Cancelled." in c.shown(announcement).text
    assert not any(b.get("callback_data") for b in c.shown(announcement).buttons)
    assert "✖ The tournament was cancelled." in recorder.last(c.chat_id).text
    c.answered_once()


def test_a_tournament_due_with_too_few_players_is_called_off_in_the_group(telegram, recorder):
    c = club(telegram, recorder)
    announcement = c.organise(*swiss_steps())
    anna = telegram.user("Anna")
    anna.start_bot()
    c.sign_up([anna], announcement)
    Tournament.objects.update(starts_at=timezone.now() - timedelta(seconds=1))
    tourney_tasks.advance_all()
    assert c.tournament().status == Status.CANCELLED
    assert "too few players signed up" in recorder.last(c.chat_id).text
    assert "Cancelled." in c.shown(announcement).text


def test_issue_46_a_full_tournament_refuses_a_sign_up_tap_and_says_so(telegram, recorder, settings):
    settings.TOURNAMENT_MAX_ENTRIES = 1
    c = club(telegram, recorder)
    announcement = c.organise(*swiss_steps())
    anna, bruno = telegram.user("Anna"), telegram.user("Bruno")
    c.sign_up([anna], announcement)
    t = c.tournament()
    t.refresh_from_db()
    before = (list(Entry.objects.values_list("player_id", flat=True)), t.version)
    query = c.tap(bruno, c.shown(announcement), callbacks.tournament(t.pk, "j"))
    assert c.toast(query) == "This tournament is full."
    t.refresh_from_db()
    assert (list(Entry.objects.values_list("player_id", flat=True)), t.version) == before


# -- whole tournaments ------------------------------------------------------------------------
def test_a_whole_swiss_tournament_played_by_taps(telegram, recorder):
    """Seven sign up in the group, six of whom opened the bot's private chat; Gina never
    did, never plays and forfeits her tables. Two rounds at Felix tables, started by the
    administrator's "start now" and then by the last game of the round; everyone else
    plays by tapping their private seat messages."""
    c = club(telegram, recorder)
    announcement = c.organise(*swiss_steps(rounds=2, start=10))
    t = c.tournament()
    names = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio")
    players = [telegram.user(n, "it" if n == "Bruno" else "en") for n in names]
    for user in players:
        user.start_bot()
    gina = telegram.user("Gina")
    c.sign_up([*players, gina], announcement)
    assert "7 players signed up" in c.shown(announcement).text

    query = c.tap(c.olga, c.shown(announcement), f"T{t.pk}:s")
    assert c.toast(query) == "The tournament starts!"
    t.refresh_from_db()
    assert t.status == Status.RUNNING
    assert "Under way: round 1 of 2." in c.shown(announcement).text

    # Round 1 in the group: both tables, each with its live table's button, the turn rule,
    # and Gina, who cannot be written to, with the link to the bot's private chat.
    (post,) = c.group_posts("— round 1 of 2")
    tables = list(RoundTable.objects.filter(round__number=1).order_by("number"))
    assert sorted(len(x.players) for x in tables) == [3, 4]
    for table in tables:
        people = Player.objects.in_bulk(table.players)
        listed = ", ".join(people[p].display_name for p in table.players)
        assert f"Table {table.number}: {listed}" in post.text
        url = f"{SITE}/play/{table.game_id}/"
        assert {"text": f"🃏 Table {table.number}", "url": url} in post.buttons
    assert "Gina: I cannot write to you in private" in post.text
    assert {
        "text": "📩 Open a private chat with the bot",
        "url": f"https://t.me/catclub_test_bot?start=t{t.pk}",
    } in post.buttons
    assert "90 s per turn" in post.text

    # Each player's seat in private, in their language, with the web table button; and
    # their cards in a message of their own, to play by taps.
    for user in players:
        seat = Seat.objects.get(
            game__tournament_table__round__number=1, player__telegram_id=user.id
        )
        told = [m for m in recorder.screen(user.id) if "🪑" in m.text]
        assert len(told) == 1, user.first_name
        url = f"{SITE}/play/{seat.game_id}/"
        assert {
            "text": "🃏 Open table" if user.language_code == "en" else "🃏 Apri il tavolo",
            "url": url,
        } in told[0].buttons
        hand = [m for m in recorder.screen(user.id) if "🐭" in m.text]
        assert hand, user.first_name
    bruno_seat = next(m for m in recorder.screen(players[1].id) if "🪑" in m.text)
    assert "Giochi al tavolo" in bruno_seat.text
    assert not recorder.sent(gina.id)  # never reachable: nothing was tried

    # Round 1 is played; its last game starts round 2 by itself.
    c.play(players, until=lambda: Round.objects.filter(number=2).exists())
    round_one = Game.objects.filter(tournament_table__round__number=1)
    assert all(g.status == GameStatus.FINISHED for g in round_one)
    gina_seat = Seat.objects.get(game__in=round_one, player__telegram_id=gina.id)
    assert gina_seat.forfeits  # she never showed: forfeited, placed last
    gina_table = RoundTable.objects.get(game=gina_seat.game)
    assert gina_table.ranks[gina_table.players.index(gina_seat.player_id)] == max(gina_table.ranks)
    assert c.group_posts("— round 2 of 2")
    assert "Under way: round 2 of 2." in c.shown(announcement).text

    c.play(players, until=lambda: c.tournament().status == Status.FINISHED)
    (final,) = c.group_posts("final standings")
    assert "🥇" in final.text and f"{SITE}/tournaments/{t.pk}/" in final.text
    for user in (*players, gina):
        assert user.first_name in final.text
    assert "Finished" in c.shown(announcement).text
    assert not any(b.get("callback_data") for b in c.shown(announcement).buttons)
    # Each round was posted once, and each seat told once.
    assert len(c.group_posts("— round 1 of 2")) == len(c.group_posts("— round 2 of 2")) == 1
    for record in RoundMessages.objects.all():
        assert record.group_sent and len(record.told) == len(set(record.told)) == 6
    assert c.taps > 50
    c.answered_once()


def test_a_whole_arena_run_by_the_beat_and_by_taps(telegram, recorder):
    """Eight sign up for a 10-minute arena at Felix; the beat starts it when due; whoever
    finishes a game is seated again at once (a new table posted in the group); a ninth
    signs up while it runs; when the window closes the games under way are played out and
    the final standings are posted."""
    c = club(telegram, recorder)
    announcement = c.organise(
        callbacks.organise("felix"),
        callbacks.organise("felix", "arena"),
        callbacks.organise("felix", "arena", 10),
        callbacks.organise("felix", "arena", 10, 5),
    )
    t = c.tournament()
    assert (t.format, t.duration_minutes) == (Format.ARENA, 10)
    names = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio", "Gina", "Hugo")
    players = [telegram.user(n) for n in names]
    for user in players:
        user.start_bot()
    c.sign_up(players, announcement)

    # Due: the beat starts it and seats the first tables.
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    tourney_tasks.advance_all()
    t.refresh_from_db()
    assert t.status == Status.RUNNING
    (first,) = c.group_posts("new tables")
    assert first.text.count("🃏 Table") == 2 and len(first.buttons) == 2
    for user in players:
        assert [m for m in recorder.screen(user.id) if "🪑" in m.text], user.first_name
    assert "Under way until" in c.shown(announcement).text

    # An arena takes sign-ups while it runs.
    ivo = telegram.user("Ivo")
    ivo.start_bot()
    c.sign_up([ivo], announcement)
    everyone = [*players, ivo]

    # Tables finish, their players are seated again at once.
    c.play(everyone, until=lambda: c.tournament().rounds.count() >= 2)
    assert len(c.group_posts("new tables")) >= 2

    # The window closes: the games under way are played out, nobody is seated again.
    Tournament.objects.filter(pk=t.pk).update(started_at=timezone.now() - timedelta(minutes=11))
    tourney_tasks.advance_all()
    rounds_at_close = c.tournament().rounds.count()
    c.play(everyone, until=lambda: c.tournament().status == Status.FINISHED)
    assert c.tournament().rounds.count() == rounds_at_close
    (final,) = c.group_posts("final standings")
    assert "🥇" in final.text and "points" in final.text
    assert "Finished" in c.shown(announcement).text
    assert not Game.objects.filter(
        tournament_table__round__tournament=t, status=GameStatus.RUNNING
    ).exists()
    c.answered_once()


def test_with_the_mini_app_the_seat_opens_it_and_a_game_without_secrets_is_played_in_private(
    telegram, recorder, settings
):
    """A Bon Appétit! tournament with the Mini App configured: the group's table buttons are
    its Direct Links, each seat's button opens it in place (a private chat allows that),
    and as nothing is private in the game each player gets the table itself in private,
    with the Flip for whoever must flip."""
    settings.TELEGRAM_MINIAPP_SHORT_NAME = "table"
    c = club(telegram, recorder)
    announcement = c.organise(
        callbacks.organise("bon_appetit"),
        callbacks.organise("bon_appetit", "swiss"),
        callbacks.organise("bon_appetit", "swiss", 2),
        callbacks.organise("bon_appetit", "swiss", 2, 5),
    )
    t = c.tournament()
    players = [telegram.user(n) for n in ("Anna", "Bruno", "Carla")]
    for user in players:
        user.start_bot()
    c.sign_up(players, announcement)
    query = c.tap(c.olga, c.shown(announcement), f"T{t.pk}:s")
    assert c.toast(query) == "The tournament starts!"
    (table,) = RoundTable.objects.all()
    game = table.game
    (post,) = c.group_posts("— round 1 of 2")
    link = f"https://t.me/catclub_test_bot/table?startapp={game.pk}"
    assert {"text": "🃏 Table 1", "url": link} in post.buttons
    by_id = {u.id: u for u in players}
    for user in players:
        seat = next(m for m in recorder.screen(user.id) if "🪑" in m.text)
        assert "The table comes in a message of its own" in seat.text
        web_app = {"text": "🃏 Open table", "web_app": {"url": f"{SITE}/play/{game.pk}/"}}
        assert web_app in seat.buttons
    (number,) = GameTable(game).to_act()
    mover = game.seats.select_related("player").get(number=number)
    user = by_id[mover.player.telegram_id]
    row = SeatMessage.objects.get(game=game, seat=number)
    message = recorder.messages[(user.id, row.message_id)]
    assert "Flip" in message.button("Flip")["text"] and "🏅" in message.text
    before = Game.objects.get(pk=game.pk).version
    c.tap(user, message, message.button("Flip")["callback_data"])
    assert Game.objects.get(pk=game.pk).version > before
    c.answered_once()


def test_a_big_round_is_posted_within_telegrams_limits():
    """A round of 90 tables of players with the longest names, 30 of whom the bot cannot
    write to: several messages, each within 4096 characters and 100 buttons."""
    from bot.tournaments import render as render
    from tests.bot.telegram_fake import parse_html

    t = Tournament(name="N" * 100, game_type="felix", format=Format.SWISS, round_count=5)
    long_name = "<Ñ>" * 42
    post = render.RoundPost(
        t,
        3,
        [render.TableLine(n, [long_name] * 4, url=f"{SITE}/play/{n}/") for n in range(1, 91)]
        + [render.TableLine(91, [long_name], bye=True)],
        90,
        2,
        unreachable=[long_name] * 30,
        start_link="https://t.me/catclub_test_bot?start=t1",
    )
    messages = render.round_posts(post)
    assert len(messages) > 2
    buttons = 0
    for text, rows in messages:
        plain, error = parse_html(text)
        assert not error and len(plain) <= 4096
        assert sum(len(r) for r in rows) <= 100 and all(len(r) <= 8 for r in rows)
        buttons += sum(1 for r in rows for b in r if "Table" in b.label)
    assert buttons == 90
    assert "… and 20 more." in messages[-1][0]


def test_a_round_is_told_once_and_a_lost_post_is_recovered(telegram, recorder):
    from bot import sync
    from bot.tournaments import posts as tournaments

    c = club(telegram, recorder)
    announcement = c.organise(*swiss_steps())
    t = c.tournament()
    players = [telegram.user(n) for n in ("Anna", "Bruno", "Carla")]
    for user in players:
        user.start_bot()
    c.sign_up(players, announcement)
    c.tap(c.olga, c.shown(announcement), f"T{t.pk}:s")
    rnd = Round.objects.get()
    sends = len(recorder.sent(method="sendMessage"))
    # Delivered again (a worker died before acknowledging it): nobody is told twice.
    tournaments.post_round(rnd.pk)
    tournaments.tell_tournament(t.pk)
    assert len(recorder.sent(method="sendMessage")) == sends
    assert sync.recover_syncs() >= 0 and len(recorder.sent(method="sendMessage")) == sends
    # A post lost with its task (Redis restarted empty) is queued again by the recovery.
    RoundMessages.objects.all().delete()
    sync.recover_syncs()
    assert len(c.group_posts("— round 1 of 2")) == 2
    for user in players:
        assert len([m for m in recorder.screen(user.id) if "🪑" in m.text]) == 2
    assert RoundMessages.objects.get().group_sent
