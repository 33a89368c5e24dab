"""Evaluation: context -> prompts -> litellm -> stored responses -> scores. Never imports generation."""
