"""No upstream twin. Starting files of the P5 StatefulSet-controller exercises.

`minikcm exercises start p5` copies them into the learner's folder; nothing imports them.
"""
