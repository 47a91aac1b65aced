import { orgPath } from '../shared/urls.ts';

/** The action's page: the Actions tab with the action open (web/app/router.tsx, home/actions/:actionID). */
export function actionUrl(appUrl: string, orgName: string, actionId: number): string {
  return `${appUrl}${orgPath(orgName, `home/actions/${actionId}`)}`;
}
