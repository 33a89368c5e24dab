"""The review page's local web server: stdlib http.server, bound to 127.0.0.1 only.

Routes: GET / (the page), GET /api/state (items and decisions), GET /api/item/<index> (one item
with its context at the cut-off and generation notes), POST /api/decision, POST /api/export.
POSTs must be JSON from the page's own origin: a JSON content type cannot be sent cross-site
without a preflight this server never grants, and the Host header must be ours (DNS rebinding).
"""

from __future__ import annotations

import json
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any

from werealign.game.visibility import build_context
from werealign.errors import UserError
from werealign.generation.prompts import context_text
from werealign.generation.restyle import originals_of
from werealign.generation.review import ReviewSession

PAGE = "review.html"
MAX_BODY = 1 << 20


def item_view(session: ReviewSession, index: int) -> dict[str, Any]:
    item = session.items[index]
    game = session.dataset.games.get(item.game_id)
    if game is None:
        context = f"(game {item.game_id} is not in the dataset: no context to show)"
    else:
        context = context_text(game, build_context(game, item.viewpoint_seat, item.cutoff_segment))
    decision = session.decisions.get(item.item_id)
    shown = decision["item"] if decision and decision["decision"] == "edited" else item.model_dump(mode="json")  # the latest edit
    return {"index": index, "total": len(session.items), "item": shown, "context": context,
            "notes": session.notes.get(item.item_id, {}), "decision": decision, "before": originals_of(item)}


def state_view(session: ReviewSession) -> dict[str, Any]:
    return {"items": [{"item_id": it.item_id, "dimension": it.dimension, "decision": (session.decisions.get(it.item_id) or {}).get("decision")}
                      for it in session.items], "first_open": session.first_open(), "log": session.log_path.name}


def make_server(session: ReviewSession, *, port: int = 0, reviewer: str = "", export_to: Path) -> ThreadingHTTPServer:
    page = (resources.files("werealign.generation") / "templates" / PAGE).read_text(encoding="utf-8")
    lock = threading.Lock()  # one decision at a time: the log is appended in decision order

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet: the terminal is the annotator's
            pass

        def _send(self, status: int, body: bytes, ctype: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def _json(self, obj: Any, status: int = 200) -> None:
            self._send(status, json.dumps(obj, ensure_ascii=False).encode("utf-8"), "application/json; charset=utf-8")

        def _host_ok(self) -> bool:
            host = self.headers.get("Host", "")
            return host in (f"127.0.0.1:{self.server.server_address[1]}", f"localhost:{self.server.server_address[1]}")

        def do_GET(self) -> None:  # noqa: N802 - http.server's naming
            if not self._host_ok():
                return self._json({"error": "bad host"}, HTTPStatus.FORBIDDEN)
            if self.path in ("/", "/index.html"):
                return self._send(200, page.encode("utf-8"), "text/html; charset=utf-8")
            if self.path == "/api/state":
                return self._json(state_view(session))
            if self.path.startswith("/api/item/"):
                try:
                    index = int(self.path.rsplit("/", 1)[1])
                    if not 0 <= index < len(session.items):
                        raise ValueError
                except ValueError:
                    return self._json({"error": "no such item"}, HTTPStatus.NOT_FOUND)
                return self._json(item_view(session, index))
            self._json({"error": "not found"}, HTTPStatus.NOT_FOUND)

        def do_POST(self) -> None:  # noqa: N802
            if not self._host_ok() or not self.headers.get("Content-Type", "").startswith("application/json"):
                return self._json({"error": "refused"}, HTTPStatus.FORBIDDEN)
            try:
                length = int(self.headers.get("Content-Length") or 0)
            except ValueError:  # answered like any bad request, not a traceback on the annotator's terminal
                return self._json({"error": "bad request: Content-Length is not a number"}, HTTPStatus.BAD_REQUEST)
            if length < 0:
                return self._json({"error": "bad request: negative Content-Length"}, HTTPStatus.BAD_REQUEST)
            if length > MAX_BODY:
                return self._json({"error": "too large"}, HTTPStatus.REQUEST_ENTITY_TOO_LARGE)
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
                with lock:
                    if self.path == "/api/decision":
                        entry = session.decide(str(body.get("item_id")), str(body.get("decision")), reason=str(body.get("reason") or ""),
                                               reviewer=reviewer, edited=body.get("item"))
                        return self._json({"ok": True, "entry": entry})
                    if self.path == "/api/export":
                        n = session.export(export_to, overwrite=True)
                        return self._json({"ok": True, "items": n, "path": export_to.name})
            except UserError as e:
                return self._json({"error": str(e)}, HTTPStatus.BAD_REQUEST)
            except (ValueError, AttributeError) as e:
                return self._json({"error": f"bad request: {e}"}, HTTPStatus.BAD_REQUEST)
            self._json({"error": "not found"}, HTTPStatus.NOT_FOUND)

    return ThreadingHTTPServer(("127.0.0.1", port), Handler)
