import { ConsoleLayout } from '../console/console-layout';
import { platformArea } from './platform-area';

export function PlatformConsole() {
  return <ConsoleLayout area={platformArea} />;
}
