"""The one helper every page uses to word a refusal (frontend/wording.py): words for a person, the stable
code never among them."""

import pytest

from accounts.errors import NotFound
from campaigns.domain import CampaignRefused
from frontend.wording import FALLBACK, WORDS, code_tag, error_text
from games.kernel import RuleViolation
from games.tournaments.errors import TournamentServiceError


def test_a_service_message_becomes_a_sentence_without_its_code():
    err = TournamentServiceError("registration_closed", "registration is closed: the tournament has started")
    assert error_text(err) == "Registration is closed: the tournament has started."
    assert "registration_closed" not in error_text(err) and code_tag(err) == "code-registration_closed"
    assert error_text(NotFound("no such session of this account")) == "No such session of this account."


def test_a_rule_violation_reads_as_its_message_not_as_its_str():
    err = RuleViolation("not_your_turn", "wait for your turn")
    assert str(err).startswith("not_your_turn") and error_text(err) == "Wait for your turn."


@pytest.mark.parametrize("body", [
    {"code": "throttled", "message": "Request was throttled. Expected available in 3 seconds."},
    {"code": "conflict", "message": "that decision has already been recorded"},
])
def test_codes_with_developer_messages_get_our_words(body):
    assert error_text(body) == WORDS[body["code"]]
    assert body["code"] not in error_text(body)


@pytest.mark.parametrize("body", [{"code": "match_in_progress", "message": "match_in_progress"},
                                  {"code": "odd_thing", "message": ""}, {"code": "", "message": "some_code_here"}, {}])
def test_a_bare_code_or_nothing_is_never_shown(body):
    assert error_text(body) == FALLBACK


def test_a_page_can_word_its_own_codes():
    err = CampaignRefused("campaign_full", "every seat is taken")
    assert error_text(err, words={"campaign_full": "Every seat of this campaign is taken."}) == \
        "Every seat of this campaign is taken."
    assert error_text(err) == "Every seat is taken."
