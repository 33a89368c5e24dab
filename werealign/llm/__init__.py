"""The model layer, shared by evaluation, generation, the solvers and the arena: litellm client with retries,
the per-run response store, the response cache shared across runs, credential checks, the built-in models and
the local server.

A request is (model, params, messages, decode) and its reply; nothing here scores. One exception knows items:
the built-in baselines (baselines.py) answer an `ItemView` (the item as its prompt shows it: options,
candidates, role cards, speech by seat), which eval hands them through litellm's request metadata (and
its floors directly, in process).
litellm is imported only through `werealign.llm.loader.import_litellm`.
"""
