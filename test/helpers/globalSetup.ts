export { setup as default } from './globalDns';
