"""No upstream twin. Starting files of the P2 informer exercises.

`minikcm exercises start p2-informers` copies them into the learner's folder; nothing imports them.
"""
