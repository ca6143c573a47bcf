import { render } from 'banner-fonts';

export default () => ({ additionalContext: render('hi') });
