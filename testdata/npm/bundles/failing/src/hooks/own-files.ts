import figlet from 'figlet';

export default () => ({ additionalContext: figlet.textSync('x') });
