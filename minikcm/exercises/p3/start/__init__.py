"""No upstream twin. Starting files of the P3 Deployment-controller exercises.

`minikcm exercises start p3` copies them into the learner's folder; nothing imports them.
"""
