"""No upstream twin. The chapters' generated figures, one module per chapter.

docs/hooks.py imports this folder as the package `minikcm_docs_figures` (mkdocs
loads the hook itself as a plain file) and calls a figure as
`function(lang, charts)`, where `charts` is the hook module with its small SVG
helpers. Every figure runs a deterministic scenario of the port (same seed,
same picture) and draws its labels in the language asked for.

Start reading at: p1.draw_lease_holder, then svg.lanes_chart.
"""
