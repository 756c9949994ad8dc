"""Reading conversation files into validated conversations, and cleaning them.

Formats (the input contract, see README):
  json        one conversation object, or a list of them:
              {"user", "session", "time", "messages": [{"role", "content", "id"?, "time"?}]}
  jsonl       one message per line: {"user", "session", "role", "content", "id"?, "time"?}
  transcript  plain text, one turn per line starting "user:" / "assistant:" (also 用户：/助手：);
              lines without a speaker continue the previous turn

Every file is read and validated completely before anything is written; a problem
raises InputError naming the file (and line or message) so the CLI exits 2.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Iterator

from .errors import InputError

ROLES = ("user", "assistant", "system", "tool", "developer", "function")
FORMATS = ("json", "jsonl", "transcript")
_EXTENSIONS = {".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl", ".txt": "transcript"}
_USER_ID = re.compile(r"^[\w.@:+\-]{1,128}$")

# Blocks that tools paste into user turns; never part of what the user said.
_UPLOAD_BLOCK = re.compile(r"<uploaded_files>.*?</uploaded_files>", re.S | re.I)
_UPLOAD_END = re.compile(r"</uploaded_files>", re.I)
_ACK = re.compile(
    r"^(ok(ay)?|k|sure|yes|yep|yeah|no|nope|thanks?( you)?( so much)?|thx|ty|cool|great|nice|got it|"
    r"sounds good|perfect|awesome|alright|好的?|好滴|嗯+|哦+|噢|行|可以|谢谢(你|啦|了)?|多谢|收到|明白了?|知道了|没问题|好嘞|对)"
    r"[\s!！.。~～,，]*$",
    re.I,
)


@dataclass(slots=True)
class Turn:
    id: str
    role: str
    content: str
    time: datetime | None = None


@dataclass
class Conversation:
    user: str
    session: str
    time: datetime | None
    turns: list[Turn] = field(default_factory=list)
    origin: str = ""


def check_user_id(user: str, where: str = "user") -> str:
    if not isinstance(user, str) or not _USER_ID.match(user):
        raise InputError(
            f"{where}: invalid user id {user!r} (1-128 letters, digits or . _ - @ : +)"
        )
    return user


# The times a conversation may carry: anything else is a typo or a sentinel value.
MIN_YEAR, MAX_YEAR = 1900, 2199


def parse_time(value: Any, where: str) -> datetime | None:
    """ISO-8601 to an aware UTC datetime; a naive time is taken as UTC."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise InputError(f"{where}: time must be an ISO-8601 string, got {type(value).__name__}")
    text = value.strip()
    if text.endswith("Z") or text.endswith("z"):
        text = text[:-1] + "+00:00"
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise InputError(f"{where}: invalid time {value!r} (expected ISO-8601)") from None
    if not MIN_YEAR <= parsed.year <= MAX_YEAR:
        # Year 1 or 9999 with an offset overflows every later date computation (recency,
        # compaction, diffs): such a time is refused, not stored.
        raise InputError(f"{where}: time {value!r} is outside the years {MIN_YEAR}-{MAX_YEAR}")
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=timezone.utc)
    return parsed


def read_sources(
    paths: Iterable[str],
    *,
    fmt: str | None = None,
    user: str | None = None,
    session: str | None = None,
    stdin_text: str | None = None,
) -> list[Conversation]:
    """Read and validate every path ('-' is standard input; folders are walked)."""
    if fmt is not None and fmt not in FORMATS:
        raise InputError(f"input format: unknown format {fmt!r} (use {', '.join(FORMATS)})")
    if user is not None:
        check_user_id(user)
    conversations: list[Conversation] = []
    for path in _expand(paths):
        text: str | None
        if path == "-":
            name, default_session = "<stdin>", session or "stdin"
            text = stdin_text if stdin_text is not None else _read_stdin()
            kind = fmt or _sniff(text, name)
        else:
            name, default_session = path, session or Path(path).stem
            kind = fmt or _EXTENSIONS.get(Path(path).suffix.lower())
            # A JSON Lines file is read line by line: a big log is never held whole.
            text = None if kind == "jsonl" else _read_text(Path(path))
            kind = kind or _sniff(text or "", name)
        if kind == "jsonl":
            lines = _file_lines(Path(path)) if text is None else text.split("\n")
            conversations.extend(_read_jsonl(lines, name, user, default_session))
        else:
            reader = _read_json if kind == "json" else _read_transcript
            conversations.extend(reader(text or "", name, user, default_session))
    return conversations


def _expand(paths: Iterable[str]) -> list[str]:
    out: list[str] = []
    for raw in paths:
        if raw == "-":
            out.append(raw)
            continue
        p = Path(raw)
        if p.is_dir():
            found = list(p.rglob("*"))
            broken = sorted(f for f in found if f.is_symlink() and not f.exists())
            if broken:
                raise InputError(f"{broken[0]}: broken symbolic link in the folder")
            files = sorted(f for f in found if f.is_file() and f.suffix.lower() in _EXTENSIONS)
            if not files:
                raise InputError(f"{raw}: folder holds no .json, .jsonl or .txt conversation files")
            out.extend(str(f) for f in files)
        elif not p.exists():
            raise InputError(f"{raw}: no such file" + (" (a broken symbolic link)" if p.is_symlink() else ""))
        elif not p.is_file():
            # A FIFO would hang the ingest, /dev/zero would fill the memory.
            raise InputError(f"{raw}: not a regular file")
        else:
            out.append(raw)
    if not out:
        raise InputError("no input: give one or more files, folders, or - for standard input")
    return out


def _read_stdin() -> str:
    data = sys.stdin.buffer.read()
    return _decode(data, "<stdin>")


def _read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        raise InputError(f"{path}: is a folder") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return _decode(data, str(path))


def _file_lines(path: Path) -> Iterator[str]:
    """The file's lines, split at \\n only and decoded one at a time, with the checks
    _decode makes on a whole file (a byte offset is the file's)."""
    try:
        f = path.open("rb")
    except IsADirectoryError:
        raise InputError(f"{path}: is a folder") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None
    offset = 0
    with f:
        for n, raw in enumerate(f):
            if b"\x00" in raw:
                raise InputError(f"{path}: binary file, not a UTF-8 conversation")
            try:
                line = raw.decode("utf-8-sig" if n == 0 else "utf-8")
            except UnicodeDecodeError as exc:
                raise InputError(f"{path}: not UTF-8 text (byte {offset + exc.start})") from None
            offset += len(raw)
            yield line[:-1] if line.endswith("\n") else line


def _decode(data: bytes, name: str) -> str:
    if b"\x00" in data:
        raise InputError(f"{name}: binary file, not a UTF-8 conversation")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{name}: not UTF-8 text (byte {exc.start})") from None


def _sniff(text: str, name: str) -> str:
    stripped = text.lstrip()
    if not stripped:
        raise InputError(f"{name}: empty input")
    if stripped[0] in "[{":
        try:
            json.loads(stripped)
            return "json"
        except json.JSONDecodeError:
            return "jsonl"
        except (ValueError, RecursionError):
            return "json"  # one document, too deep or with a huge number: its reader says so
    return "transcript"


def _json_error(name: str, exc: json.JSONDecodeError) -> InputError:
    if ": line " in name:
        return InputError(f"{name}: invalid JSON at column {exc.colno}: {exc.msg}")
    return InputError(f"{name}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}")


def _loads(text: str, where: str) -> Any:
    """JSON with the limits of a conversation: bounded nesting and numbers, no lone
    surrogates (they cannot be stored as UTF-8)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _json_error(where, exc) from None
    except RecursionError:
        raise InputError(f"{where}: JSON nested too deeply") from None
    except ValueError as exc:  # an integer of thousands of digits
        raise InputError(f"{where}: {str(exc).split(';')[0]}") from None
    _check_values(data, where, 0)
    return data


_MAX_DEPTH = 64


def _check_values(value: Any, where: str, depth: int) -> None:
    if depth > _MAX_DEPTH:
        raise InputError(f"{where}: JSON nested more than {_MAX_DEPTH} levels deep")
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise InputError(f"{where}: text with a lone surrogate escape (\\ud800-\\udfff), not valid Unicode") from None
    elif isinstance(value, dict):
        for k, v in value.items():
            _check_values(k, where, depth + 1)
            _check_values(v, where, depth + 1)
    elif isinstance(value, list):
        for v in value:
            _check_values(v, where, depth + 1)


def _read_json(text: str, name: str, user: str | None, session: str) -> list[Conversation]:
    data = _loads(text, name)
    if isinstance(data, list) and data and all(isinstance(m, dict) and "role" in m and "messages" not in m for m in data):
        # An OpenAI-style chat: a list of {"role", "content"} messages, one conversation,
        # whose user comes from --user and whose session from --session or the file name.
        if user is None:
            raise InputError(f"{name}: a list of chat messages names no user; pass --user")
        turns = [_message(m, j, f"{name}: message {j}", None) for j, m in enumerate(data, 1)]
        return [Conversation(check_user_id(user), session, next((t.time for t in turns if t.time), None), turns, origin=name)]
    items = data if isinstance(data, list) else [data]
    if not items:
        raise InputError(f"{name}: empty list, no conversations")
    out = []
    for i, obj in enumerate(items, 1):
        where = f"{name}: conversation {i}" if len(items) > 1 else name
        if not isinstance(obj, dict):
            raise InputError(f"{where}: must be an object with user, session and messages")
        messages = obj.get("messages")
        if not isinstance(messages, list):
            raise InputError(f"{where}: 'messages' must be a list")
        conv_user = _user(obj, where, user)
        conv_session = _field_str(obj, "session", where) or (session if len(items) == 1 else f"{session}#{i}")
        conv_time = parse_time(obj.get("time"), f"{where}: time")
        turns = [
            _message(m, j, f"{where}: message {j}", conv_time) for j, m in enumerate(messages, 1)
        ]
        out.append(Conversation(conv_user, conv_session, conv_time, turns, origin=name))
    return out


def _read_jsonl(lines: Iterable[str], name: str, user: str | None, session: str) -> list[Conversation]:
    groups: dict[tuple[str, str], Conversation] = {}
    # Lines end at \n (and \r\n) only: U+2028, U+2029 and U+0085 are valid inside a JSON string.
    for lineno, line in enumerate(lines, 1):
        line = line.rstrip("\r")
        if not line.strip():
            continue
        where = f"{name}: line {lineno}"
        obj = _loads(line, where)
        if not isinstance(obj, dict):
            raise InputError(f"{where}: each line must be a JSON object (one message)")
        line_user = _user(obj, where, user)
        line_session = _field_str(obj, "session", where) or session
        key = (line_user, line_session)
        conv = groups.get(key)
        if conv is None:
            conv = groups[key] = Conversation(line_user, line_session, None, [], origin=name)
        turn = _message(obj, len(conv.turns) + 1, where, conv.time)
        if conv.time is None:
            conv.time = turn.time
        conv.turns.append(turn)
    if not groups:
        raise InputError(f"{name}: no messages")
    return list(groups.values())


_SPEAKER = re.compile(r"^\s*(user|assistant|system|tool|human|ai|用户|助手|系统)\s*[:：]\s?(.*)$", re.I)
_SPEAKER_ROLE = {"human": "user", "ai": "assistant", "用户": "user", "助手": "assistant", "系统": "system"}


def _read_transcript(text: str, name: str, user: str | None, session: str) -> list[Conversation]:
    if user is None:
        raise InputError(f"{name}: a plain transcript names no user; pass --user")
    turns: list[Turn] = []
    # Each turn's lines, joined once at the end: adding line by line copies a long turn
    # over and over.
    lines: list[list[str]] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        m = _SPEAKER.match(line)
        if m:
            role = m.group(1).lower()
            role = _SPEAKER_ROLE.get(role, role)
            turns.append(Turn(f"t{len(turns) + 1}", role, ""))
            lines.append([m.group(2)])
        elif line.strip():
            if not turns:
                raise InputError(f"{name}: line {lineno}: expected 'user:' or 'assistant:' at the start")
            lines[-1].append(line)
    for turn, said in zip(turns, lines):
        turn.content = "\n".join(said)
    if not turns:
        raise InputError(f"{name}: no turns found (lines must start with 'user:' or 'assistant:')")
    return [Conversation(user, session, None, turns, origin=name)]


def _user(obj: dict[str, Any], where: str, default: str | None) -> str:
    found = _field_str(obj, "user", where) or default
    if found is None:
        raise InputError(f"{where}: no user; add \"user\" or pass --user")
    return check_user_id(found, where)


def _field_str(obj: dict[str, Any], key: str, where: str) -> str | None:
    value = obj.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{where}: '{key}' must be a non-empty string")
    return value


def _message(obj: Any, index: int, where: str, default_time: datetime | None) -> Turn:
    if not isinstance(obj, dict):
        raise InputError(f"{where}: must be an object with role and content")
    role = obj.get("role")
    if not isinstance(role, str):
        raise InputError(f"{where}: 'role' must be a string")
    if role not in ROLES:
        raise InputError(f"{where}: unknown role {role!r} (expected user, assistant, system or tool)")
    content = obj.get("content", "")
    if content is None:
        content = ""
    if isinstance(content, list):
        # OpenAI content parts: the text parts, in order; images and files are not words.
        if not all(isinstance(p, dict) for p in content):
            raise InputError(f"{where}: 'content' parts must be objects")
        content = "\n".join(p["text"] for p in content if p.get("type") == "text" and isinstance(p.get("text"), str))
    if not isinstance(content, str):
        raise InputError(f"{where}: 'content' must be a string, got {type(content).__name__}")
    turn_id = obj.get("id")
    if turn_id is not None and (isinstance(turn_id, bool) or not isinstance(turn_id, (str, int))):
        raise InputError(f"{where}: 'id' must be a string or number")
    time = parse_time(obj.get("time"), f"{where}: time") or default_time
    return Turn(str(turn_id) if turn_id is not None else f"t{index}", role, content, time)


def _without_uploads(text: str) -> str:
    """The text with its <uploaded_files> blocks replaced by a space.

    Only the part up to the last closing tag can hold a block: an opening tag after it
    would search to the end of the text for one, and a text full of them would cost its
    length squared.
    """
    last = None
    for last in _UPLOAD_END.finditer(text):
        pass
    if last is None:
        return text
    return _UPLOAD_BLOCK.sub(" ", text[:last.end()]) + text[last.end():]


def is_acknowledgement(text: str) -> bool:
    return bool(_ACK.match(text.strip()))


def clean(conv: Conversation) -> list[Turn]:
    """User turns and the final assistant reply before each; no tools, uploads or acks.

    Assistant replies stay as context (a bare "not anymore" answers the question before
    it); only user turns become memories.
    """
    kept: list[Turn] = []
    pending_reply: Turn | None = None
    for turn in conv.turns:
        if turn.role in ("tool", "system"):
            continue
        text = _without_uploads(turn.content).strip()
        if not text:
            continue
        if turn.role == "assistant":
            pending_reply = Turn(turn.id, turn.role, text, turn.time)
            continue
        if pending_reply is not None:
            kept.append(pending_reply)
            pending_reply = None
        if is_acknowledgement(text):
            continue
        kept.append(Turn(turn.id, turn.role, text, turn.time))
    if pending_reply is not None:
        kept.append(pending_reply)
    return kept
