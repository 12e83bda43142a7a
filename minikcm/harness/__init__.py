"""No upstream twin. Harnesses: what tests, the docs build and the large reliability runs use, and a learner can skip.

`chaos` replays the chapter scenarios under seeded faults and checks invariants after
every step (`acknowledged`: its recording API server and the lost-write check);
`election_faults` runs three leader electors under crashes, partitions and skewed
clocks; `replay` records a scenario's driver steps into the trace the site's replay
widget plays (`replay_format`: that file's shape and check). They stand on `minikcm.sim` (the simulated cluster and the
chapter scenarios) and are never imported by the port itself.
"""
