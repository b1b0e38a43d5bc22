import { lazyChunk, definePlugin } from '../../core';
import { EMPLOYEE_ROUTE, EmployeeState, EmployeeStateToken, TALKING_ROUTE } from './employee-state';

const OfficePanel = lazyChunk(() => import('./panels/OfficePanel'));
const TalkingPanel = lazyChunk(() => import('./panels/TalkingPanel'));

/** 超级员工 (issue 32): bundled for every host but the helper hosts. My employees, the 招聘 catalogue, and talking face to face. */
export const plugin = definePlugin('employee', {
  services: [[EmployeeStateToken, EmployeeState]],
  panels: [
    { route: EMPLOYEE_ROUTE, component: OfficePanel },
    { route: TALKING_ROUTE, component: TalkingPanel },
  ],
});
