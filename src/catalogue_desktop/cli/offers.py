"""``catalogue-desktop offers``: the offer log, each offer checked against the cached catalogue,
offline (``core.offers.checking``): ``offers`` lists them, ``offers show ID`` one with each
item's quoted values and its values now, ``offers check`` exits 1 when an open offer no longer
matches the catalogue (for scripts)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from catalogue_desktop.cli.common import open_store
from catalogue_desktop.cli.connection import offline_cache
from catalogue_desktop.cli.output import say
from catalogue_desktop.core.records.errors import CatalogueError

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from catalogue_desktop.core.offers.logged import LoggedOffer, Quoted
    from catalogue_desktop.core.offers.occasions import Occasion


class UnknownOffer(CatalogueError):
    """The offer log has no offer of the id asked for."""


def run(args: argparse.Namespace) -> int:
    from catalogue_desktop.core.offers import checking
    from catalogue_desktop.core.searches.stored import local_now

    if args.action != "show" and args.offer_id is not None:
        say("catalogue-desktop offers: an ID goes with 'show' (offers show ID)", sys.stderr)
        return 2
    if args.action == "show" and args.offer_id is None:
        say("catalogue-desktop offers show: expected the offer's ID (see 'offers')", sys.stderr)
        return 2
    sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    with open_store(*offline_cache(args), reading=True) as store:
        checked = checking.check(store, local_now(), save=not store.read_only)
        path, days = store.path, store.history.span_days
    if args.action == "show":
        offer = next((o for o in checked.offers if o.id == args.offer_id), None)
        if offer is None:
            raise UnknownOffer(f"no offer {args.offer_id} in the offer log of {path} (kept {days} days)")
        if args.json:
            print(json.dumps(shown_json(offer), ensure_ascii=False, indent=1))
        else:
            say(shown_text(offer))
        return 0
    if args.action == "check":
        flagged = checked.flagged
        if args.json:
            print(json.dumps([o.to_json() for o in flagged], ensure_ascii=False, indent=1))
        elif flagged:
            say("\n".join(line for o in flagged for line in listed_text(o)))
        else:
            open_ones = sum(1 for o in checked.offers if o.open)
            say(f"All {open_ones} open offer{'s' if open_ones != 1 else ''} match the catalogue.")
        return 1 if flagged else 0
    if args.json:
        print(json.dumps([o.to_json() for o in checked.offers], ensure_ascii=False, indent=1))
    elif checked.offers:
        say("\n".join(line for o in checked.offers for line in listed_text(o)))
    else:
        say(f"No offers in the log of {path} yet (offers made in the last {days} days are kept).")
    return 0


def listed_text(offer: LoggedOffer) -> list[str]:
    """An offer's line (id, title, when, occasions, total, status) and its changes below it."""
    n = len(offer.items)
    parts = [
        f"#{offer.id}",
        offer.title + (f" (version {offer.version})" if offer.version > 1 else ""),
        offer.made[:10],
        f"{n} date{'s' if n != 1 else ''}",
    ]
    if offer.total:
        parts.append(offer.total)
    status = offer.status + (f" by #{offer.superseded_by}" if offer.superseded_by is not None else "")
    parts.append(status)
    return ["\t".join(parts)] + [f"  {line}" for line in offer.changes]


def shown_json(offer: LoggedOffer) -> dict[str, object]:
    """``offers show ID --json``: the offer, each item with its values now and its changes."""
    data = offer.to_json()
    items = []
    for item in offer.items:
        finding = offer.finding(item.occasion)
        items.append(
            {
                **item.to_json(),
                "now": None if finding is None or finding.now is None else finding.now.to_json(),
                "over": finding is not None and finding.over,
                "withdrawn": finding is not None and finding.withdrawn,
                "changes": [] if finding is None else list(finding.changes),
            }
        )
    data["items"] = items
    return data


def shown_text(offer: LoggedOffer) -> str:
    lines = listed_text(offer)[:1]
    if offer.note:
        lines.append(f"Note: {offer.note}")
    if offer.valid_until is not None:
        lines.append(f"Valid until: {offer.valid_until.isoformat()}")
    for written in offer.written:
        lines.append(f"Written: {written.format} to {written.where}")
    if offer.superseded_by is not None:
        lines.append(f"Re-issued as offer #{offer.superseded_by}: this one is kept as it was promised.")
    for item in offer.items:
        finding = offer.finding(item.occasion)
        lines.append("")
        lines.append(f"{item.occasion}  {item.title}")
        lines.append(f"  quoted: {_values(item)}")
        if finding is None:
            continue
        if finding.over:
            lines.append("  now:    over")
        elif finding.now is None:
            lines.append("  now:    withdrawn, no longer listed by the service")
        else:
            lines.append(f"  now:    {_values(finding.now)}")
        lines += [f"  changed: {line.split(': ', 1)[-1]}" for line in finding.changes if finding.now]
    return "\n".join(lines)


def _values(item: Quoted) -> str:
    from catalogue_desktop.core.offers.occasions import money, when

    fee = money(item.fee, item.currency) if item.fee is not None else "no fee"
    end = f" – {when(item.end)}" if item.end else ""
    return f"{when(item.start)}{end}; {item.place or 'online'}; {fee}"


def remember_export(args: argparse.Namespace, items: Sequence[Occasion], currency: str | None) -> None:
    """Log the offer ``export offerings --title`` just wrote (``core.offers.logged.remember``):
    its title, format, where it went and the occasions quoted; said on stderr."""
    from pathlib import Path

    from catalogue_desktop.core.offers.logged import Written, remember

    if not items:
        return
    where = "standard output" if args.output in (None, "-") else str(Path(args.output).absolute())
    with open_store(*offline_cache(args), reading=True) as store:
        made = remember(
            store,
            title=args.title or "Offer",
            items=items,
            written=[Written(args.format, where)],
            currency=currency,
            note=(args.note or "").strip(),
        )
    if made is None:
        say("catalogue-desktop: the offer was not logged: the cache cannot be written here", sys.stderr)
    else:
        say(
            f"catalogue-desktop: logged as offer #{made.id} (catalogue-desktop offers show {made.id})",
            sys.stderr,
        )


def after_sync(path: Path) -> str | None:
    """Check the offer log after a sync into the store at ``path``; the line to say when open
    offers no longer match the catalogue (None otherwise)."""
    from catalogue_desktop.core.cache.store import Store
    from catalogue_desktop.core.offers import checking
    from catalogue_desktop.core.searches.stored import local_now

    try:
        with Store(path) as store:
            flagged = checking.check(store, local_now()).flagged
    except CatalogueError as exc:  # the sync stands; the offers are checked next time
        return f"Offers: not checked ({exc})"
    if not flagged:
        return None
    n = len(flagged)
    return (
        f"Offers: {n} open offer{'s' if n != 1 else ''} no longer match{'es' if n == 1 else ''} the "
        "catalogue (catalogue-desktop offers check)"
    )
