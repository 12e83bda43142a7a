"""No upstream twin. Starting files of the P1 leader-election exercises.

`minikcm exercises start p1` copies them into the learner's folder; nothing imports them.
"""
