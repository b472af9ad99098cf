"""What the match page says for the socket's own refusals that no REST answer shares."""

import shutil

import pytest

from .test_words_js import run_js

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


def test_a_message_too_large_for_the_socket_reads_in_words():
    said = run_js('words.errorText({code: "frame_too_large", message: "that message was too large for this socket '
                  '(70000 characters; at most 65536)"})')
    assert said == "That was too large for the server to read: nothing was done."
    assert run_js("words.WORDS.frame_too_large") == said  # also what the page says on close 1009
