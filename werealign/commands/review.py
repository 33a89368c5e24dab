"""`werealign review PATH`: the annotators' review page (see werealign/generation/review.py)."""

from __future__ import annotations

import getpass
from pathlib import Path

import typer


def review_command(
    path: Path = typer.Argument(..., help="A generation directory (from `werealign generate`) or a dataset directory."),
    port: int = typer.Option(0, "--port", help="Port on 127.0.0.1 (0: any free port)."),
    reviewer: str | None = typer.Option(None, "--reviewer", help="Name recorded with every decision (default: the login name)."),
    log: Path | None = typer.Option(None, "--log", help="Review log (default: PATH/review.jsonl, or DATASET.review.jsonl beside a dataset)."),
    export: Path | None = typer.Option(None, "--export", help="Export target (default: PATH/reviewed, or DATASET-reviewed)."),
    export_only: bool = typer.Option(False, "--export-only", help="Write the export from the review log and exit, without serving the page."),
    open_browser: bool = typer.Option(False, "--open", help="Open the page in the default browser."),
) -> None:
    """Serve the review page on 127.0.0.1: accept (a), edit (e) or reject (r) each item, keyboard-driven.

    Every decision is appended to the review log (and fsynced) the moment it is made; reopening resumes.
    Export (x on the page, or --export-only) writes the accepted and edited items as a dataset."""
    from werealign.generation.review import open_review
    from werealign.generation.review_server import make_server

    session = open_review(path, log)
    is_generation = (path / "dataset").is_dir()
    target = export or (path / "reviewed" if is_generation else path.parent / f"{path.name}-reviewed")
    if export_only:
        n = session.export(target, overwrite=True)
        print(f"exported {n} reviewed items to {target}")
        print(f"review log: {session.log_path}")
        return
    server = make_server(session, port=port, reviewer=reviewer if reviewer is not None else getpass.getuser(), export_to=target)
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    decided = len(session.decisions)
    print(f"reviewing {len(session.items)} items ({decided} decided) at {url} (Ctrl-C stops)", flush=True)
    print(f"review log: {session.log_path}", flush=True)
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    try:
        server.serve_forever()
    finally:
        server.server_close()
