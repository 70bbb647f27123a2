# Its own migration: on PostgreSQL the schema change's deferred indexes and constraints
# cannot be created in the transaction that has just written rows to the same tables.

from django.db import migrations
from django.utils import timezone


def season_ratings(apps, schema_editor):
    """Each season's table from its rated games, from a fresh start (as
    ``games.ratings.service.rebuild`` builds it), with the historical models. Games rated
    before forfeits existed: only the seats players kept are rated, as they were then."""
    from games.ratings.maths import Placing, Played, fold  # pure arithmetic, no models

    Season = apps.get_model("games", "Season")
    RatedGame = apps.get_model("games", "RatedGame")
    Rating = apps.get_model("games", "Rating")
    RatingChange = apps.get_model("games", "RatingChange")
    Seat = apps.get_model("games", "Seat")
    for season in Season.objects.select_related("league").order_by("pk"):
        decisions = RatedGame.objects.filter(league=season.league).select_related("game")
        by_type = {}
        for decision in decisions:
            game = decision.game
            when = game.finished_at or game.updated_at or game.created_at
            day = timezone.localdate(when)
            if not (season.starts_on <= day and (season.ends_on is None or day <= season.ends_on)):
                continue
            decision.season = season
            decision.save(update_fields=["season"])
            if decision.rated and game.result:
                by_type.setdefault(game.game_type, []).append((when, game.pk, game))
        for game_type, games in by_type.items():
            played = []
            for when, pk, game in sorted(games, key=lambda g: (g[0], g[1])):
                ranks, scores = game.result["ranks"], game.result.get("scores") or []
                seats = Seat.objects.filter(game=game, player__isnull=False).order_by("number")
                placings = tuple(
                    Placing(
                        seat.player_id,
                        int(ranks[seat.number]),
                        float(scores[seat.number])
                        if seat.number < len(scores)
                        and isinstance(scores[seat.number], (int, float))
                        else None,
                    )
                    for seat in seats
                    if not seat.replaced_by_computer
                )
                if len(placings) >= 2:
                    played.append(Played(pk, when, placings))
            skills, counts, changes = fold(played)
            rows = {}
            for pid, skill in skills.items():
                rows[pid] = Rating.objects.create(
                    player_id=pid,
                    game_type=game_type,
                    league=season.league,
                    season=season,
                    mu=skill.mu,
                    sigma=skill.sigma,
                    ordinal=skill.ordinal,
                    games=counts[pid],
                )
            RatingChange.objects.bulk_create(
                RatingChange(
                    rating=rows[c.placing.player_id],
                    game_id=c.game_id,
                    played_at=c.played_at,
                    rank=c.placing.rank,
                    score=c.placing.score,
                    mu_before=c.before.mu,
                    sigma_before=c.before.sigma,
                    mu_after=c.after.mu,
                    sigma_after=c.after.sigma,
                    ordinal_before=c.before.ordinal,
                    ordinal_after=c.after.ordinal,
                )
                for c in changes
            )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0008_season_ratings"),
    ]

    operations = [
        migrations.RunPython(season_ratings, migrations.RunPython.noop),
    ]
