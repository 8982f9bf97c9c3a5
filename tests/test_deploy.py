"""deploy/: the example settings, the systemd unit and its install steps, the image and the compose file.

Docker cannot run here, and neither can a real install: these tests read the files the way
systemd, Docker Compose and the bot read them, and follow the install steps on paper."""

from __future__ import annotations

import json
import logging
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from dotenv import dotenv_values

from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
EXAMPLE_ENV = DEPLOY / "example.env"
UNIT = DEPLOY / "parlour.service"
DOCKERFILE = DEPLOY / "Dockerfile"
COMPOSE = DEPLOY / "compose.yaml"
README = DEPLOY / "README.md"
SETTING_NAMES = (
    "DISCORD_TOKEN",
    "PARLOUR_DB",
    "PARLOUR_DATABASE_URL",
    "PARLOUR_DEV_GUILD",
    "PARLOUR_LOG_LEVEL",
    "PARLOUR_SHARD_COUNT",
    "PARLOUR_SHARD_IDS",
    "PARLOUR_LEASE_SECONDS",
)


# --- reading the files ------------------------------------------------------------------------


def env_file(path: Path) -> dict[str, str]:
    """An EnvironmentFile= as systemd reads it: NAME=value lines; blank, # and ; lines skipped."""
    out: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        name, sep, value = line.partition("=")
        assert sep, f"{path.name}: not a NAME=value line: {line!r}"
        out[name.strip()] = value.strip()
    return out


def unit_file(path: Path) -> dict[str, list[tuple[str, str]]]:
    """A systemd unit: each section's Key=value settings, in order (keys may repeat)."""
    sections: dict[str, list[tuple[str, str]]] = {}
    current: list[tuple[str, str]] | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], [])
            continue
        key, sep, value = line.partition("=")
        assert sep and current is not None, f"{path.name}: unexpected line {line!r}"
        current.append((key.strip(), value.strip()))
    return sections


def unit_values(unit: dict[str, list[tuple[str, str]]], key: str, section: str = "Service") -> list[str]:
    return [v for k, v in unit.get(section, []) if k == key]


def unit_value(unit: dict[str, list[tuple[str, str]]], key: str, section: str = "Service") -> str | None:
    values = unit_values(unit, key, section)
    return values[-1] if values else None


def unit_environment(unit: dict[str, list[tuple[str, str]]]) -> dict[str, str]:
    """What the Environment= lines set (later assignments win, as in systemd)."""
    out: dict[str, str] = {}
    for value in unit_values(unit, "Environment"):
        for word in shlex.split(value):
            name, _, val = word.partition("=")
            out[name] = val
    return out


def service_environment(unit: dict[str, list[tuple[str, str]]], settings_file: Path) -> dict[str, str]:
    """The service's environment: Environment= first, then EnvironmentFile=, which overrides it."""
    return unit_environment(unit) | env_file(settings_file)


def writable_dirs(unit: dict[str, list[tuple[str, str]]]) -> list[PurePosixPath]:
    """Where the service may write under ProtectSystem=strict: its state, cache, runtime and log
    directories and ReadWritePaths=."""
    bases = {
        "StateDirectory": "/var/lib",
        "CacheDirectory": "/var/cache",
        "RuntimeDirectory": "/run",
        "LogsDirectory": "/var/log",
    }
    out = [
        PurePosixPath(base, name)
        for key, base in bases.items()
        for value in unit_values(unit, key)
        for name in value.split()
    ]
    out += [PurePosixPath(p.lstrip("-")) for v in unit_values(unit, "ReadWritePaths") for p in v.split()]
    return out


def within(path: PurePosixPath, folder: PurePosixPath) -> bool:
    return path == folder or folder in path.parents


def unit_install_commands() -> list[str]:
    """The shell commands in the unit's header comment (indented lines of the first comment block)."""
    out = []
    for line in UNIT.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        if line.startswith("#   "):
            out.append(line[4:].strip())
    return out


def readme_section(title: str) -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index(title)
    end = text.find("\n#", start + len(title))
    return text[start : end if end >= 0 else len(text)]


def code_lines(markdown: str) -> list[str]:
    """The lines of the indented code blocks."""
    return [line[4:].rstrip() for line in markdown.splitlines() if line.startswith("    ") and line.strip()]


def dockerfile() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, continuation lines joined and comments dropped."""
    out: list[tuple[str, str]] = []
    pending = ""
    for raw in DOCKERFILE.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line, pending = pending + line, ""
        instruction, _, args = line.partition(" ")
        out.append((instruction.upper(), args.strip()))
    return out


def dockerfile_env() -> dict[str, str]:
    out: dict[str, str] = {}
    for instruction, args in dockerfile():
        if instruction == "ENV":
            for word in shlex.split(args):
                name, _, value = word.partition("=")
                out[name] = value
    return out


def _yaml_scalar(text: str) -> Any:
    text = text.strip()
    if text.startswith("["):
        return json.loads(text)
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


def _yaml_uncomment(line: str) -> str:
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip()
    return line.rstrip()


def simple_yaml(text: str) -> Any:
    """Enough YAML for the compose file (block mappings and lists, flow lists, plain and quoted
    scalars), for machines without PyYAML."""
    lines = []
    for raw in text.splitlines():
        line = _yaml_uncomment(raw)
        if line.strip():
            lines.append((len(line) - len(line.lstrip(" ")), line.strip()))

    def block(i: int, indent: int) -> tuple[Any, int]:
        if lines[i][1].startswith("- "):
            items = []
            while i < len(lines) and lines[i][0] == indent and lines[i][1].startswith("- "):
                items.append(_yaml_scalar(lines[i][1][2:]))
                i += 1
            return items, i
        mapping: dict[str, Any] = {}
        while i < len(lines) and lines[i][0] == indent:
            match = re.fullmatch(r"([^:]+):(?:\s+(.*))?", lines[i][1])
            assert match, f"compose.yaml: cannot read {lines[i][1]!r}"
            key, rest = match.group(1).strip(), match.group(2)
            i += 1
            if rest:
                mapping[key] = _yaml_scalar(rest)
            elif i < len(lines) and lines[i][0] > indent:
                mapping[key], i = block(i, lines[i][0])
            else:
                mapping[key] = None
        return mapping, i

    value, end = block(0, lines[0][0])
    assert end == len(lines), f"compose.yaml: stopped reading at {lines[end][1]!r}"
    return value


def compose() -> dict[str, Any]:
    text = COMPOSE.read_text(encoding="utf-8")
    try:
        import yaml  # type: ignore[import-untyped]
    except ImportError:
        return simple_yaml(text)  # type: ignore[no-any-return]
    return yaml.safe_load(text)  # type: ignore[no-any-return]


@pytest.fixture
def clean_settings_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No setting from the test process's environment, and no .env in the working directory."""
    for name in SETTING_NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


# --- example.env ------------------------------------------------------------------------------


def test_example_env_gives_valid_settings_and_no_database(clean_settings_env: None) -> None:
    assert "PARLOUR_DB" not in env_file(EXAMPLE_ENV), "the image and the unit set PARLOUR_DB"
    settings = Settings(_env_file=EXAMPLE_ENV)  # type: ignore[call-arg]
    assert settings.database == Settings(_env_file=None).database  # type: ignore[call-arg]
    assert settings.discord_token is None  # blank: to be filled in
    assert settings.dev_guild_id is None
    assert settings.log_level in {"DEBUG", "INFO", "WARNING", "ERROR"}
    assert isinstance(logging.getLevelName(settings.log_level), int)


def test_example_env_reads_the_same_to_systemd_compose_and_the_bot() -> None:
    """Plain NAME=value lines only: no quotes, spaces or trailing comments, which the three
    readers treat differently."""
    text = EXAMPLE_ENV.read_text(encoding="utf-8")
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            assert re.fullmatch(r"[A-Z][A-Z0-9_]*=[^\s\"'#\\$]*", line), line
    systemd_view = env_file(EXAMPLE_ENV)
    assert set(systemd_view) <= set(SETTING_NAMES)
    assert {k: v or "" for k, v in dotenv_values(EXAMPLE_ENV).items()} == systemd_view


# --- the systemd unit -------------------------------------------------------------------------


def test_unit_database_is_the_units_own_and_writable(
    clean_settings_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    unit = unit_file(UNIT)
    assert unit_value(unit, "EnvironmentFile") == "/etc/parlour.env"
    own = unit_environment(unit)["PARLOUR_DB"]
    resolved = service_environment(unit, EXAMPLE_ENV)
    assert resolved["PARLOUR_DB"] == own, "the example file must not override the unit's database"

    for name, value in resolved.items():
        monkeypatch.setenv(name, value)
    database = PurePosixPath(Settings(_env_file=None).database)  # type: ignore[call-arg]
    assert database == PurePosixPath(own) and database.is_absolute()
    assert unit_value(unit, "ProtectSystem") == "strict"
    writable = writable_dirs(unit)
    assert any(within(database.parent, d) for d in writable), (database, writable)
    # matplotlib's cache too, since the home directory is read-only to the service
    mpl = PurePosixPath(resolved["MPLCONFIGDIR"])
    assert any(within(mpl, d) for d in writable), (mpl, writable)
    # the working directory is there when the service starts (created with the state directory)
    workdir = PurePosixPath(unit_value(unit, "WorkingDirectory") or "/")
    assert workdir in writable


def test_unit_stops_with_a_signal_the_bot_handles() -> None:
    unit = unit_file(UNIT)
    assert unit_value(unit, "KillSignal") in (None, "SIGTERM", "SIGINT")
    assert unit_value(unit, "Type") in (None, "simple", "exec")
    stopping = (ROOT / "bot" / "discord" / "stopping.py").read_text(encoding="utf-8")
    assert "signal.SIGTERM" in stopping and "add_signal_handler" in stopping  # tests/test_stop.py stops it


class InstallModel:
    """The install steps on paper: who creates which directory and file, and who may write where.

    A directory exists once a step makes it (system directories exist from the start); a user may
    write in a directory they own, root anywhere; `you` (the admin) runs the unprefixed steps in
    the repository root."""

    SYSTEM_DIRS = (
        "/",
        "/etc",
        "/etc/systemd",
        "/etc/systemd/system",
        "/opt",
        "/usr",
        "/var",
        "/var/lib",
        "/tmp",
    )

    def __init__(self) -> None:
        self.dirs: dict[PurePosixPath, str] = {PurePosixPath(d): "root" for d in self.SYSTEM_DIRS}
        self.files: dict[PurePosixPath, str] = {}
        self.users: dict[str, PurePosixPath] = {}

    def problem(self, line: str) -> str | None:
        """Follow one line of shell; return what would fail, or None."""
        lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        words = list(lexer)
        command: list[str] = []
        for word in [*words, "&&"]:
            if word in ("&&", "|"):
                trouble = self.step(command)
                if trouble:
                    return f"{line!r}: {trouble}"
                command = []
            else:
                command.append(word)
        return None

    def writable(self, path: PurePosixPath, actor: str) -> str | None:
        if path not in self.dirs:
            return f"{path} does not exist yet"
        if actor != "root" and self.dirs[path] != actor:
            return f"{actor} may not write in {path} (owned by {self.dirs[path]})"
        return None

    def step(self, words: list[str]) -> str | None:
        actor = "you"
        if words[:1] == ["sudo"]:
            words = words[1:]
            actor = "root"
            if words[:1] == ["-u"]:
                actor, words = words[1], words[2:]
                if actor not in self.users:
                    return f"no user {actor} yet"
        name, args = words[0], words[1:]
        if name == "useradd":
            if actor != "root":
                return "useradd needs root"
            user = args[-1]
            home = next(args[i + 1] for i, a in enumerate(args) if a in ("--home-dir", "--home", "-d"))
            self.users[user] = PurePosixPath(home)
            if "--create-home" in args or "-m" in args:
                self.dirs[PurePosixPath(home)] = user
            return None
        if name == "install":
            options: dict[str, str] = {}
            rest: list[str] = []
            it = iter(args)
            for a in it:
                if a in ("-o", "-g", "-m"):
                    options[a] = next(it)
                elif a == "-d":
                    options["-d"] = ""
                else:
                    rest.append(a)
            owner = options.get("-o", actor)
            if owner != actor and actor != "root":
                return "install -o needs root"
            if owner != "root" and owner not in self.users:
                return f"no user {owner} yet"
            if "-d" in options:
                for d in rest:  # install -d makes missing parents too
                    path = PurePosixPath(d)
                    for parent in reversed(path.parents):
                        self.dirs.setdefault(parent, actor)
                    self.dirs[path] = owner
                return None
            source, target = rest
            if not (ROOT / source).is_file():
                return f"{source} is not in the repository"
            dest = PurePosixPath(target)
            if dest in self.dirs:
                dest = dest / Path(source).name
            trouble = self.writable(dest.parent, actor)
            self.files[dest] = owner
            return trouble
        if name == "rm":
            for gone in (PurePosixPath(a) for a in args if not a.startswith("-")):
                self.dirs = {d: o for d, o in self.dirs.items() if not within(d, gone)}
                self.files = {f: o for f, o in self.files.items() if not within(f, gone)}
            return None
        if re.fullmatch(r"python3(\.\d+)?", name) and args[:2] == ["-m", "venv"]:
            venv = PurePosixPath(args[2])
            trouble = self.writable(venv.parent, actor)
            self.dirs[venv] = self.dirs[venv / "bin"] = actor
            for tool in ("python", "pip"):
                self.files[venv / "bin" / tool] = actor
            return trouble
        if name == "tar":
            flags = args[0]
            if "c" in flags:
                missing = [a for a in args[1:] if not a.startswith("-") and not (ROOT / a).exists()]
                return f"tar -c of {missing}, which the repository lacks" if missing else None
            return self.writable(PurePosixPath(args[args.index("-C") + 1]), actor)
        if name.startswith("/"):
            program = PurePosixPath(name)
            if program not in self.files:
                return f"{program} does not exist yet"
            if program.name == "pip" and args[:1] == ["install"]:
                venv_trouble = self.writable(program.parent.parent, actor)
                # pip builds in the source folder it installs from: the installer must write there
                return venv_trouble or self.writable(PurePosixPath(args[-1]), actor)
            return None
        if name == "systemd-run":
            options = dict(a.split("=", 1) for a in args if a.startswith("--") and "=" in a)
            command = [a for a in args if not a.startswith("-")]
            if options.get("--uid") not in self.users:
                return f"no user {options.get('--uid')} yet"
            env = options.get("--property", "").removeprefix("EnvironmentFile=")
            if PurePosixPath(env) not in self.files:
                return f"{env} does not exist yet"
            if PurePosixPath(command[0]) not in self.files:
                return f"{command[0]} does not exist yet"
            return None
        if name in ("systemctl", "journalctl"):
            return None
        return f"the install model does not know {name!r}: teach it"


def test_install_steps_create_every_directory_they_use() -> None:
    model = InstallModel()
    for line in unit_install_commands():
        assert model.problem(line) is None, model.problem(line)
    unit = unit_file(UNIT)
    user = unit_value(unit, "User")
    assert user in model.users and unit_value(unit, "Group") in (None, user)
    exec_start = shlex.split(unit_value(unit, "ExecStart") or "")
    assert PurePosixPath(exec_start[0]) in model.files, "ExecStart runs what the steps installed"
    assert exec_start[1:] == ["-m", "bot"]
    settings_file = PurePosixPath(unit_value(unit, "EnvironmentFile") or "")
    assert model.files.get(settings_file) == "root", "systemd reads the settings; root keeps them"
    assert PurePosixPath("/etc/systemd/system", UNIT.name) in model.files


def test_install_model_catches_the_old_missing_home() -> None:
    """The steps this replaced: a system user's home is not created, so the venv step failed."""
    model = InstallModel()
    assert (
        model.problem("sudo useradd --system --home /opt/parlour --shell /usr/sbin/nologin parlour") is None
    )
    trouble = model.problem("sudo -u parlour python3.11 -m venv /opt/parlour/venv")
    assert trouble and "/opt/parlour does not exist" in trouble


def test_readme_gives_the_units_install_commands() -> None:
    readme = code_lines(readme_section("### systemd"))
    header = unit_install_commands()
    assert header, "the unit's header lists its install commands"
    for line in header:
        assert line in readme, f"deploy/README.md lacks: {line}"
    install_part = readme[: readme.index("sudo systemctl daemon-reload") + 1]
    assert [line for line in install_part if line not in header] == []
    section = readme_section("### systemd")
    database = unit_environment(unit_file(UNIT))["PARLOUR_DB"]
    assert database in section and "/etc/parlour.env" in section


def _verify(unit_path: Path) -> tuple[int, list[str]]:
    done = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(unit_path)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=unit_path.parent,
    )
    return done.returncode, [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]


@pytest.fixture
def systemd_analyze() -> None:
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed on this machine: the unit is only read by hand")


def test_unit_passes_systemd_analyze_verify(systemd_analyze: None, tmp_path: Path) -> None:
    """On the unit as shipped, the only complaint may be the virtualenv's python, which exists
    only after installing; a copy whose ExecStart names this python must pass clean."""
    _code, lines = _verify(UNIT)
    exec_start = shlex.split(unit_value(unit_file(UNIT), "ExecStart") or "")
    assert all(exec_start[0] in line and "not executable" in line for line in lines), lines
    copy = tmp_path / UNIT.name
    copy.write_text(UNIT.read_text(encoding="utf-8").replace(exec_start[0], sys.executable), encoding="utf-8")
    code, lines = _verify(copy)
    assert (code, lines) == (0, [])


def test_systemd_analyze_verify_reads_the_copy(systemd_analyze: None, tmp_path: Path) -> None:
    """The check above is not vacuous: a setting systemd does not know is reported."""
    copy = tmp_path / UNIT.name
    text = UNIT.read_text(encoding="utf-8").replace("/opt/parlour/venv/bin/python", sys.executable)
    copy.write_text(text.replace("[Service]\n", "[Service]\nNoSuchSetting=1\n"), encoding="utf-8")
    _code, lines = _verify(copy)
    assert any("NoSuchSetting" in line for line in lines), lines


# --- the image and the compose file -----------------------------------------------------------


def test_image_database_is_on_its_volume_and_writable_by_its_user() -> None:
    steps = dockerfile()
    database = PurePosixPath(dockerfile_env()["PARLOUR_DB"])
    folder = str(database.parent)
    users = [args for instruction, args in steps if instruction == "USER"]
    assert users and users[-1] not in ("root", "0"), "the bot does not run as root"
    user = users[-1]
    volumes = [json.loads(args) for instruction, args in steps if instruction == "VOLUME"]
    assert [folder] in volumes
    volume_at = next(i for i, (ins, args) in enumerate(steps) if ins == "VOLUME" and folder in args)
    runs = " && ".join(args for ins, args in steps[:volume_at] if ins == "RUN")
    assert re.search(rf"useradd [^&]*\b{user}\b", runs), "the image creates its user"
    owned = re.search(rf"install -d -o {user}\b[^&]* {re.escape(folder)}\b", runs) or re.search(
        rf"chown {user}(:{user})? {re.escape(folder)}\b", runs
    )
    assert owned, f"{folder} belongs to {user} before VOLUME (a new volume copies its owner)"
    assert re.search(r"useradd [^&]*--create-home", runs), "a writable home (matplotlib's cache)"
    cmd = [json.loads(args) for ins, args in steps if ins == "CMD"]
    assert cmd and cmd[-1] == ["python", "-m", "bot"], "exec form: the bot receives docker stop's SIGTERM"


def test_compose_keeps_the_database_on_a_named_volume(
    clean_settings_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = compose()
    database = PurePosixPath(dockerfile_env()["PARLOUR_DB"])
    bot = spec["services"]["bot"]
    assert bot["build"]["dockerfile"] == "deploy/Dockerfile"
    assert (COMPOSE.parent / bot["build"]["context"]).resolve() == ROOT
    mounts = [str(v).split(":") for v in bot["volumes"]]
    named = [source for source, target, *_ in mounts if target == str(database.parent)]
    assert named and named[0] in spec["volumes"], "the database folder is a named volume"
    assert bot.get("environment", {}).get("PARLOUR_DB", str(database)) == str(database)
    # what the container sees: the image's ENV, then env_file, then environment (the strongest)
    resolved = dockerfile_env() | env_file(EXAMPLE_ENV) | bot.get("environment", {})
    for name, value in resolved.items():
        monkeypatch.setenv(name, value)
    assert Settings(_env_file=None).database == str(database)  # type: ignore[call-arg]
    # deploy/.env, as the README says to make it from example.env
    assert bot["env_file"] == ".env"
    assert "cp deploy/example.env deploy/.env" in readme_section("### Docker Compose")
    assert spec["services"]["sync"]["image"] == bot["image"]
    assert spec["services"]["sync"]["env_file"] == ".env"
    section = readme_section("### Docker Compose")
    assert named[0] in section and str(database) in section


def test_compose_sharded_profile_splits_every_shard_between_its_processes(
    clean_settings_env: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The "sharded" profile: PostgreSQL on a named volume and bot processes that agree on the
    shard count and split the shards between them, each with settings the bot accepts."""
    spec = compose()
    services = spec["services"]
    # every service in one profile: `--profile sharded up` cannot start the single bot beside the
    # shards with the same token, nor a plain `up` both
    assert services["bot"]["profiles"] == ["single"]
    assert all(service.get("profiles") for service in services.values()), "a service in no profile starts with any"
    for name, service in services.items():
        assert not {"single", "sharded"} <= set(service["profiles"]), name
    section = readme_section("### Docker Compose")
    assert "--profile single up -d" in section and "Compose v2" in section
    postgres = services["postgres"]
    assert postgres["profiles"] == ["sharded"]
    assert str(postgres["volumes"][0]).split(":")[0] in spec["volumes"]
    shards = {name: s for name, s in services.items() if "PARLOUR_SHARD_IDS" in s.get("environment", {})}
    assert len(shards) >= 2
    plans = []
    for name, service in shards.items():
        assert service["profiles"] == ["sharded"] and service["restart"] == "unless-stopped", name
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
        environment = {
            k: str(v).replace("${PARLOUR_POSTGRES_PASSWORD:-}", "secret") for k, v in service["environment"].items()
        }
        assert "@postgres:" in environment["PARLOUR_DATABASE_URL"]
        for key, value in (dockerfile_env() | env_file(EXAMPLE_ENV) | environment).items():
            monkeypatch.setenv(key, value)
        plan = Settings(_env_file=None).shard_plan  # type: ignore[call-arg]
        assert plan is not None, name
        plans.append(plan)
    assert len({plan.count for plan in plans}) == 1
    ids = sorted(i for plan in plans for i in plan.ids)
    assert ids == list(range(plans[0].count)), "every shard served once"
    section = readme_section("## Several processes (sharding)")
    assert all(name in section for name in shards) and "PARLOUR_POSTGRES_PASSWORD" in section


def test_image_context_leaves_out_the_settings_file() -> None:
    """deploy/.env holds the token: the build context keeps only what the image needs."""
    patterns = [
        line.strip()
        for line in (DEPLOY / "Dockerfile.dockerignore").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert patterns[0] == "**"
    included = [p[1:] for p in patterns if p.startswith("!")]
    assert not any(p.startswith(("deploy", ".env", "*")) for p in included), included
    copied = {source for ins, args in dockerfile() if ins == "COPY" for source in args.split()[:-1]}
    assert copied <= {p.split("/")[0] for p in included}, "the image copies only what the context keeps"


def test_simple_yaml_reads_the_compose_subset() -> None:
    text = 'a:\n  b: "x: y"  # note\n  c: [1, 2]\n  d:\n    - p:/q\n# gone\ne:\n'
    assert simple_yaml(text) == {"a": {"b": "x: y", "c": [1, 2], "d": ["p:/q"]}, "e": None}
