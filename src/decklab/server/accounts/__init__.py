"""People's accounts: passwords, sessions, passkeys, and the seats that follow them.

The table service knows nothing of accounts: a logged-in person's seat is an ordinary
seat whose token the server can derive again (:mod:`.seats`), so every device the
person logs in on is handed the same token, and play goes through the tables' one path.
"""
