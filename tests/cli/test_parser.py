"""The window's command line is read by the parser without its commands (start-up time): it must
read every window command line as the whole parser does, and leave anything else to the whole one."""

from __future__ import annotations

import argparse

import pytest

from catalogue_desktop.cli.parser import COMMANDS, build_parser, parse_command_line


def _commands(parser: argparse.ArgumentParser) -> tuple[str, ...]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return tuple(sub.choices)


def test_the_commands_named_are_the_parsers_commands() -> None:
    assert _commands(build_parser()) == COMMANDS


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["--offline", "--cache-dir", "/tmp/x", "--base-url", "http://127.0.0.1:9"],
        ["--demo", "--query", "fee:<300 cle:yes", "--open", "webinar:50007"],
        ["--query=-cle:yes", "--currency", "EUR", "--max-size", "12"],
        ["--profile", "work", "--proxy", "none", "--ca-file", "ca.pem", "--token-env", "TOKEN"],
        ["--self-test"],
    ],
)
def test_a_window_command_line_reads_as_the_whole_parser_reads_it(argv: list[str]) -> None:
    assert vars(parse_command_line(argv)) == vars(build_parser().parse_args(argv))


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["nonsense"], "invalid choice: 'nonsense' (choose from 'sync', 'check'"),
        (["--bogus"], "unrecognized arguments: --bogus"),
        (["--max-size", "many"], "argument --max-size"),
    ],
)
def test_a_mistake_is_said_by_the_whole_parser(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as raised:
        parse_command_line(argv)
    assert raised.value.code == 2
    assert said in capsys.readouterr().err


def test_a_command_is_read_by_the_whole_parser() -> None:
    args = parse_command_line(["find", "--kind", "webinars", "--", "-cle:yes"])
    assert args.command == "find"
    assert vars(args) == vars(build_parser().parse_args(["find", "--kind", "webinars", "--", "-cle:yes"]))


def test_help_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse_command_line(["--help"])
    out = capsys.readouterr().out
    assert all(command in out for command in COMMANDS)
