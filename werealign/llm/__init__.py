"""The model layer, shared by evaluation, generation, the solvers and the arena: litellm client with retries,
the per-run response store, the response cache shared across runs, credential checks, the built-in models and
the local server.

A request is (model, params, messages, decode) and its reply; nothing here scores. A model string becomes a
connection in one place (connect.py), and eval and generation run their requests through one worker runner
(workers.py) and one call engine (call_engine.py). A built-in model may be answered in process (the baselines of
werealign.baselines, found through the `werealign.models` entry points) from the request's subject, whatever the
caller hands the engine with it (eval: the sample's solver State), never through litellm; this layer knows no task.
litellm is imported only through `werealign.llm.loader.import_litellm`, and only for a model litellm serves.
"""
