"""The model layer, shared by evaluation, generation, the solvers and the arena: litellm client with retries,
the per-run response store, the response cache shared across runs, credential checks, the built-in models and
the local server.

A request is (model, params, messages, decode) and its reply; nothing here scores. A model string becomes a
connection in one place (connect.py), and eval and generation run their requests through one worker runner
(workers.py) and one call engine (engine.py). The built-in baselines (baselines.py) are answered in process from
an `ItemView` (the item as its prompt shows it: options, candidates, role cards, speech by seat) that the caller
hands the engine as the request's subject, never through litellm; eval's floors ask them directly.
litellm is imported only through `werealign.llm.loader.import_litellm`, and only for a model litellm serves.
"""
