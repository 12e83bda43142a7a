"""No upstream twin. Simulation: the deterministic driver, a simulated kubelet, scenarios.

Everything here stands in for what a real cluster provides (nodes running pods,
time passing) so that controllers can be watched, stepped and tested on a laptop.
"""
