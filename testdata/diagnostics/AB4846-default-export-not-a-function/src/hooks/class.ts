export default class KeepGoing {
  handle() {
    return undefined;
  }
}
