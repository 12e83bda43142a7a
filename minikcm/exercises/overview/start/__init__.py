"""No upstream twin. Starting files of the overview (startup) exercises.

`minikcm exercises start overview` copies them into the learner's folder; nothing imports them.
"""
