"""No upstream twin. Starting files of the P2 work-queue exercises.

`minikcm exercises start p2-workqueue` copies them into the learner's folder; nothing imports them.
"""
