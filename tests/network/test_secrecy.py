"""A seat's browser learns nothing of the other hands: an attacker who keeps every answer one
seat received over a whole network game (bodies and headers) deals every game number from 1 to
1,000,000 looking for that seat's first 13 cards, and tries every token in the answers as the
seed; nothing matches. The same search finds a solo game's deal from its first page, so a
miss is the search failing on the table, not the search not working."""

from __future__ import annotations

import base64
import re

import numpy as np
import pytest

from game.engine import Card
from game.engine.rng import SEED_BYTES, SplitMix64, deal, secret_deal, secret_key
from tests.support.deal_search import decks, search
from tests.support.network import Person, assert_honest, needed, table_of, unplayed_elsewhere
from tests.support.web import game_of, named_client

pytestmark = pytest.mark.django_db

HAND = re.compile(rb'aria-label="Your cards"[^>]*>(.*?)</div>', re.S)


def first_hand_seen(bodies: list[bytes]) -> list[int]:
    """The first 13 cards the page showed in its own hand, as card indexes."""
    for body in bodies:
        found = HAND.search(body)
        if found:
            codes = re.findall(rb"face-(\w\w)", found.group(1))
            if len(codes) == 13:
                return sorted(Card.parse(code.decode()).index for code in codes)
    raise AssertionError("no hand of 13 cards was ever shown")


def test_the_vector_deal_is_the_engines_deal():
    numbers = np.array([*range(1, 1501), 999_999, 1_000_000, 617, 731_337], dtype=np.int64)
    for hand_number in (1, 2):
        rows = decks(numbers, hand_number)
        for row, number in zip(rows, numbers, strict=True):
            cards = list(range(52))
            SplitMix64.for_key(0xDEA1, int(number), hand_number).shuffle(cards)
            assert row.tolist() == cards
            hands = [sorted(row[13 * s : 13 * s + 13].tolist()) for s in range(4)]
            assert hands == deal(int(number), hand_number)


def test_the_search_finds_a_solo_games_deal_from_what_its_browser_received():
    client = named_client("Ada", number=731_337)
    hand = first_hand_seen([client.get("/").content])
    found = search(hand)
    assert found == [(731_337, 0)]
    game = game_of(client)  # and with the number, every other hand follows
    dealt = [sorted(Card.parse(code).index for code in game.hand(seat)) for seat in range(4)]
    assert deal(found[0][0], 1) == dealt


def test_the_search_finds_a_numbered_network_deal_which_the_lobby_says_is_public():
    anna = Person("Anna")
    code = anna.deal(617)
    bob = Person("Bob")
    bob.join(code)
    lobby = bob.page().content.decode()
    assert "anyone who knows the number can look up every player's cards" in lobby
    anna.post("start")
    hand = first_hand_seen([bob.page().content])
    assert search(hand) == [(617, 1)]


def tokens_in(everything: bytes) -> set[bytes]:
    """Every run of 16 or more characters that could carry 16 bytes: hex, base64, base64url."""
    return set(re.findall(rb"[A-Za-z0-9_+/=-]{16,}", everything))


def seeds_from(token: bytes) -> list[bytes]:
    """The 16-byte seeds a token could stand for."""
    seeds = []
    text = token.decode()
    for piece in {text, text.strip("=")}:
        for start in range(0, max(1, len(piece) - 31)):
            chunk = piece[start : start + 32]
            if re.fullmatch(r"[0-9a-fA-F]{32}", chunk):
                seeds.append(bytes.fromhex(chunk))
        for decode in (base64.b64decode, base64.urlsafe_b64decode):
            try:
                raw = decode(piece + "=" * (-len(piece) % 4))
            except ValueError:
                continue
            seeds.extend(raw[i : i + SEED_BYTES] for i in range(0, len(raw) - SEED_BYTES + 1))
    seeds.append(token[:SEED_BYTES].ljust(SEED_BYTES, b"\0"))
    return seeds


def test_a_whole_network_game_seen_from_one_seat_names_no_other_hand():
    anna = Person("Anna")
    code = anna.deal(0)  # no number: a secret deal
    bob = Person("Bob")
    assert bob.join(code).status_code == 303
    anna.page()
    moves = 0
    while True:
        state = table_of(code)[1]
        if state.game is not None and state.game.phase == "game_over":
            break
        for person in (anna, bob):
            step = needed(person)
            if step is None:
                continue
            action, form = step
            response = person.post(action, htmx=moves % 5 != 4, **form)
            moves += 1
            if person is anna:
                after = table_of(code)[1]
                assert_honest(response.content, unplayed_elsewhere(after, 0))
                if moves % 7 == 0:  # the pages and polls a browser also gets
                    page = anna.page()
                    assert_honest(page.content, unplayed_elsewhere(after, 0))
                    anna.poll(table_of(code)[0].version - 1)
            break
        assert moves < 2_000
    anna.page()
    state = table_of(code)[1]
    seed = state.game.seed
    assert len(seed) == SEED_BYTES and state.game.number == 0 and state.number == 0
    bodies = [body for _, body in anna.received]
    everything = b"\n".join(
        b"\n".join(f"{k}: {v}".encode() for k, v in headers.items()) + b"\n" + body
        for headers, body in anna.received
    )

    # what Anna's browser saw of her own first hand is what the seed dealt her
    hand = first_hand_seen(bodies)
    assert hand == secret_deal(seed, 1)[0]
    # every numbered deal: none gives any seat Anna's first 13 cards
    assert search(hand) == []
    # the seed, or the key that it gives the computers, in any common spelling: nowhere
    key = secret_key(seed)
    for form in (
        seed.hex(),
        seed.hex().upper(),
        base64.b64encode(seed).decode().rstrip("="),
        base64.urlsafe_b64encode(seed).decode().rstrip("="),
        str(int.from_bytes(seed, "little")),
        str(int.from_bytes(seed, "big")),
        str(key),
        f"{key:x}",
    ):
        assert form.encode() not in everything, form
    # every token in the answers, read as a seed, deals something else
    tried = 0
    for token in tokens_in(everything):
        for candidate in seeds_from(token):
            tried += 1
            assert hand not in secret_deal(candidate, 1)
    assert tried > 10  # the table code, the seat token, the CSRF token, the ids...
