import { ConsoleLayout } from '../console/console-layout';
import { tenantArea } from './tenant-area';

export function TenantConsole() {
  return <ConsoleLayout area={tenantArea} />;
}
