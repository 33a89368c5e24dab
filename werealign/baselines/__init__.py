"""The built-in baselines as policies: each answers one item as its prompt shows it (`ItemView`: data, never the
gold or the hidden game) with an answer and why (policies.py; own_style.py for the viewpoint's own words).

They sit below the model layer and the tasks: they read only an ItemView, so neither eval nor litellm needs to know
them. The model layer lists them as built-in models answered in process (werealign.llm.builtin_models,
werealign.llm.connect); eval's floors ask them directly.
"""
