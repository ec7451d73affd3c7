// Preloaded (node --require) into a Node server started with PORT=0: prints the port the OS gave
// each listening server, since server-everything's own log line repeats the 0 it was given.
'use strict';
const net = require('node:net');
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
    this.once('listening', () => {
        const address = this.address();
        if (address && typeof address === 'object') {
            process.stderr.write(`mcpx-testkit: listening on port ${address.port}\n`);
        }
    });
    return listen.apply(this, args);
};
