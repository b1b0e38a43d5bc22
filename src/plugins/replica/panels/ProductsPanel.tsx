/** /explosiveAnalysis/project: my products — list, add, edit (with a picture), delete. */
import { Button, FormGroup, NonIdealState } from '@blueprintjs/core';
import { ConfirmDelete, PageHeader, UploadBox, useDeletionFlow, useScreen, useService, useStore, useValue, type PanelProps } from '../../../core';
import { ReplicaStateToken, type ProductsScreen, type ReplicaState } from '../replica-state';
import { INDEX_ROUTE, PRODUCT_FIELDS } from '../replica-view';
import { RecordCard, RecordForm } from './RecordsParts';
import './replica.css';

export default function ProductsPanel({ closed$ }: PanelProps) {
  const state = useService<ReplicaState>(ReplicaStateToken);
  const screen = useScreen(() => state.openProducts(closed$));
  const list = useStore(screen.products).value?.list;
  const form = useValue(screen.form$);
  const saving = useValue(screen.saving$);
  const uploading = useValue(screen.uploading$);
  const deletion = useDeletionFlow(screen.deletion);
  return (
    <div className="rp-page" data-testid="replica-products">
      <div className="rp-inner">
        <PageHeader icon="shopping-cart" title="我的产品" subtitle="仿写和写脚本时围绕的产品：卖点、人群与使用场景">
          <div className="rp-head-tags">
            <a className="rp-link" href={`#${INDEX_ROUTE}`}>超级复刻首页</a>
            <Button intent="primary" icon="plus" text="新建产品" onClick={() => screen.add()} data-testid="replica-add" />
          </div>
        </PageHeader>
        {list && !list.length && <NonIdealState icon="shopping-cart" title="还没有产品" description="加上产品，仿写出来的文案会带上它的卖点。" />}
        <ul className="rp-grid">
          {list?.map((p) => (
            <RecordCard
              key={p.id}
              testId="replica-product-card"
              title={p.name}
              image={p.image}
              lines={[['品类', p.category], ['价格', p.price ? `¥${p.price}` : ''], ['卖点', p.selling_points], ['人群', p.audience], ['场景', p.scenes]]}
              onEdit={() => screen.edit(p)}
              onDelete={() => deletion.ask(p)}
            />
          ))}
        </ul>
      </div>
      <RecordForm
        title={form?.id ? '编辑产品' : '新建产品'}
        isOpen={!!form}
        fields={PRODUCT_FIELDS}
        value={form?.value}
        onChange={(patch) => screen.change(patch)}
        onSave={() => void (uploading ? undefined : screen.save())}
        onClose={() => screen.close()}
        saving={saving || uploading}
      >
        <Picture screen={screen} />
      </RecordForm>
      <ConfirmDelete deletion={deletion} title="删除产品" text={`确定删除「${deletion.target?.name ?? ''}」吗？`} classPrefix="rp" />
    </div>
  );
}

function Picture({ screen }: { screen: ProductsScreen }) {
  const image = useValue(screen.image$);
  return (
    <FormGroup label="产品图片（可选）" className="rp-wide">
      {image ? (
        <div className="rp-picture">
          <img src={image.url} alt="" />
          <Button icon="cross" variant="minimal" text="移除" onClick={() => screen.uploaded(null)} />
        </div>
      ) : (
        <UploadBox type="image" accept=".jpg,.jpeg,.png" onUploaded={(f) => screen.uploaded(f)} onBusyChange={(b) => screen.uploading$.next(b)} hint="支持 JPG/PNG" compact data-testid="replica-image" />
      )}
    </FormGroup>
  );
}
