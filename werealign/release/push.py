"""Upload a release folder to the Hugging Face Hub with the token from the environment.

The token is read by huggingface_hub itself (HF_TOKEN, or a `huggingface-cli login`); werealign never
holds it in a file, a log line or a message.
"""

from __future__ import annotations

from pathlib import Path

from werealign.errors import UserError
from werealign.files.output_dir import MARKER


def push_release(folder: Path, repo_id: str, *, private: bool = False) -> str:
    """Create the dataset repo if needed and upload the folder as one commit; returns the commit URL."""
    from huggingface_hub import HfApi, get_token
    from huggingface_hub.errors import HfHubHTTPError

    if get_token() is None:
        raise UserError("--push-to-hub: no Hugging Face token; set HF_TOKEN in the environment (it is never written anywhere)")
    api = HfApi()
    try:
        api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
        info = api.upload_folder(repo_id=repo_id, folder_path=folder, repo_type="dataset", ignore_patterns=[MARKER],
                                 commit_message=f"werealign release of {folder.name}")
    except HfHubHTTPError as e:
        raise UserError(f"--push-to-hub {repo_id}: {str(e).splitlines()[0]}") from None
    return str(getattr(info, "commit_url", info))
