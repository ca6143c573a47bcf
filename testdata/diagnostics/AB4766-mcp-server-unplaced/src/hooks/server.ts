process.stdin.resume();
