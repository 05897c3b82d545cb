"""The server's processes and transports: the asyncssh server (:mod:`serve.ssh_server`) with its
rate limits and garbage-collector policy, Textual over an SSH channel (:mod:`serve.ssh_driver`),
the browser page and its websocket driver (:mod:`serve.web`, :mod:`serve.web_driver`), and the
fixes that let a closed Textual session be freed (:mod:`serve.teardown`).

The screens they host are :mod:`tui`'s (which knows no transport); the saloon they serve is
:mod:`lobby`'s (which knows no front end).
"""
