"""No upstream twin. Simulation: a simulated kubelet, a volume binder, scenarios and the live view.

Everything here stands in for what a real cluster provides (nodes running pods,
binding volumes) so that controllers can be watched, stepped and tested on a
laptop. The deterministic driver these worlds run on is `minikcm.driver`, on
the ground floor beside the clock, because every loop of the port speaks its
step contract.
"""
