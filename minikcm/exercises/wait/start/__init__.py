"""No upstream twin. Starting files of the `wait` exercises.

`minikcm exercises start wait` copies them into the learner's folder; nothing imports them.
"""
