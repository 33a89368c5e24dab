"""The built-in baselines: models answered in process, each reading a solver State as data (`view.py`: the
item as its prompt shows it, never the gold or the hidden game) and answering with a policy (`policies.py`;
`own_style.py` for the viewpoint's own words). `models.py` makes them models of the model layer.

They sit above the tasks and the solvers (they read a State and the task's answer shape) and below eval. The model
layer never imports them: werealign declares them in its `werealign.models` entry points, as another package would
its own models; eval hands each request's State to the engine (the request's subject) and asks them for its floors.
"""
