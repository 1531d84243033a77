"""tablectl: table controller firmware. `controller.rules` is the pure rules core."""
