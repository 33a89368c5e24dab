"""The model layer, shared by evaluation and generation: litellm client with retries, the per-run response
store, the response cache shared across runs, credential checks, the built-in models and the local server.

Nothing here knows about items, tasks or scores: a request is (model, params, messages, decode) and its
reply. litellm is imported only through `werealign.llm.loader.import_litellm`.
"""
