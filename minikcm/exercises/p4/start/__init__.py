"""No upstream twin. Starting files of the P4 ReplicaSet-controller exercises.

`minikcm exercises start p4` copies them into the learner's folder; nothing imports them.
"""
