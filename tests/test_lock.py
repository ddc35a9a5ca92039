"""The lock files pin the whole dependency tree with hashes and agree with the requirements
they were made from (``make lock`` regenerates them)."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;\\]+)", re.M)


def _name(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(path: Path) -> dict[str, str]:
    return {_name(n): v for n, v in PIN.findall(path.read_text())}


def locked(path: Path) -> dict[str, str]:
    """Each locked package's version; every entry must carry at least one hash."""
    entries = re.split(r"\n(?=[A-Za-z0-9])", path.read_text())
    found = {}
    for entry in entries:
        m = PIN.match(entry)
        if not m:
            continue
        assert "--hash=sha256:" in entry, f"{path.name}: {m.group(1)} has no hash"
        found[_name(m.group(1))] = m.group(2)
    return found


@pytest.mark.parametrize(
    ("wanted", "lock"),
    [("requirements.txt", "requirements.lock"), ("requirements-dev.txt", "requirements-dev.lock")],
)
def test_every_requirement_is_locked_at_its_version(wanted, lock):
    lock_pins = locked(ROOT / lock)
    wanted_pins = pins(ROOT / wanted)
    if wanted == "requirements-dev.txt":
        wanted_pins |= pins(ROOT / "requirements.txt")
    assert wanted_pins, f"{wanted} pins nothing"
    wrong = {n: (v, lock_pins.get(n)) for n, v in wanted_pins.items() if lock_pins.get(n) != v}
    assert not wrong, f"{lock} disagrees with {wanted} (wanted, locked): {wrong}; run make lock"


def test_the_two_locks_agree_and_pin_the_server_stack():
    run = locked(ROOT / "requirements.lock")
    dev = locked(ROOT / "requirements-dev.lock")
    assert {n: dev.get(n) for n in run} == run
    for name in ("twisted", "autobahn", "asgiref", "txaio", "django", "channels", "daphne"):
        assert name in run, f"{name} is not locked"


def test_make_installs_from_the_locks():
    makefile = (ROOT / "Makefile").read_text()
    assert "--require-hashes -r requirements.lock" in makefile
    assert "--require-hashes -r requirements-dev.lock" in makefile
